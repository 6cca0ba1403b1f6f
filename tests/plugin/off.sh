#!/bin/bash
# The plugin can be turned off: rpm --noplugins, and %__transaction_verity
# defined as %{nil}, keep rpm from calling any verity hook.
. "$(dirname "$0")/lib.sh"

new_root noplugins
run_rpm -ivv --noplugins --define "_fsverity_policy enforce" "$PKGS/vt-demo-1.rpm"
expect_rc 0 "--noplugins"
expect_no_out "verity: |in verity plugin|verity\.so" "--noplugins"

new_root nil
run_rpm -ivv --define "_fsverity_policy enforce" \
	--define "__transaction_verity %{nil}" "$PKGS/vt-demo-1.rpm"
expect_rc 0 "%__transaction_verity %{nil}"
expect_no_out "calling hook .* in verity plugin|verity: " "%{nil}"

# And it is on otherwise: the same install is refused.
new_root on
run_rpm -i --define "_fsverity_policy enforce" "$PKGS/vt-demo-1.rpm"
expect_rc 1 "plugin on"
finish "--noplugins and %{nil} turn the plugin off"
