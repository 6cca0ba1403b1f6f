# Fixture for the signer tests: keys of every supported kind, a throwaway
# GPG key, and the test packages built once by rpmbuild and shared by all
# tests (each test copies what it changes).
. "$(dirname "$0")/lib.sh"
set -e
scratch
rm -rf "$FIXTURE"
mkdir -p "$KEYS" "$PKGS" "$GNUPGHOME"
chmod 700 "$GNUPGHOME"

note "keys"
echo "fixture passphrase" >"$KEYS/pass"
"$KEYGEN" --type rsa --bits 2048 --subject /CN=rsa2048/ "$KEYS/rsa2048" >/dev/null
"$KEYGEN" --type rsa --bits 4096 --subject /CN=rsa4096/ "$KEYS/rsa4096" >/dev/null
"$KEYGEN" --type ecdsa --curve prime256v1 --subject /CN=p256/ "$KEYS/p256" >/dev/null
"$KEYGEN" --type ecdsa --curve secp384r1 --subject /CN=p384/ "$KEYS/p384" >/dev/null
"$KEYGEN" --type rsa --passphrase-file "$KEYS/pass" --subject /CN=rsapass/ "$KEYS/rsapass" >/dev/null
stop_gpg_agent_at_exit
gpg --batch --quiet --passphrase '' --quick-gen-key "$GPG_NAME" rsa2048 sign never 2>/dev/null
gpg --batch --quiet --armor --export "$GPG_NAME" >"$KEYS/gpg-pub.asc"

gen="gen $TOOLS_DIR/gen-content.py"
note "packages"
p=$(build_rpm "$SPECS/kinds.spec" "$SCRATCH/z" w1.zstdio "$gen" "with_big 1")
mv "$p" "$PKGS/kinds.rpm"
for c in gzip:w1.gzdio bzip2:w1.bzdio xz:w1.xzdio lzma:w1.lzdio none:w0.ufdio zstd:w1.zstdio; do
	p=$(build_rpm "$SPECS/kinds.spec" "$SCRATCH/${c%%:*}" "${c#*:}" "$gen")
	[ "$(qf "$p" '%{PAYLOADCOMPRESSOR}')" != "" ] || fail "$p: no compressor tag"
	mv "$p" "$PKGS/kinds-${c%%:*}.rpm"
done
p=$(build_rpm "$SPECS/many.spec" "$SCRATCH/m" w1.zstdio "nfiles 2000")
mv "$p" "$PKGS/many.rpm"
p=$(build_rpm "$SPECS/plain.spec" "$SCRATCH/p" w1.zstdio "$gen")
mv "$p" "$PKGS/plain.rpm"
top=$SCRATCH/srpm
rpmbuild -bs --quiet --define "_topdir $top" "$SPECS/plain.spec" >/dev/null 2>&1 ||
	fail "rpmbuild -bs plain.spec failed"
mv "$top"/SRPMS/*.src.rpm "$PKGS/plain-src.rpm"
ls -l "$PKGS"
