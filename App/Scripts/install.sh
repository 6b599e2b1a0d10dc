#!/bin/sh
# Installs the staged files of `make install` (or `make install-server`) under a prefix, and
# removes exactly those files again for `make uninstall` (`make uninstall-server`). A manifest
# under PREFIX/share/NAME (tokens, or tokens-server: PRODUCT) records every file written and
# every folder created, so uninstall never touches anything Tokens did not put there.
#
#   install.sh install STAGE PREFIX   copy STAGE/<relative path> to PREFIX/<relative path>
#   install.sh uninstall PREFIX       remove what the manifest lists
set -eu

manifest_path=share/${PRODUCT:-tokens}/install-manifest

fail() { echo "install.sh: $*" >&2; exit 1; }

# Creates the folder and its missing parents, printing each one it created (relative).
make_dirs() {
    prefix=$1 relative=$2 missing=""
    while [ "$relative" != "." ] && [ ! -d "$prefix/$relative" ]; do
        missing="$relative $missing"
        relative=$(dirname "$relative")
    done
    for dir in $missing; do
        mkdir "$prefix/$dir"
        echo "dir $dir"
    done
}

install_files() {
    stage=$1 prefix=$2
    [ -d "$stage" ] || fail "no staged files in $stage"
    mkdir -p "$prefix"
    prefix=$(cd "$prefix" && pwd)
    records=$(mktemp)
    trap 'rm -f "$records"' EXIT
    # An upgrade keeps the folders an earlier install created, so uninstall still removes them.
    if [ -f "$prefix/$manifest_path" ]; then grep '^dir ' "$prefix/$manifest_path" >>"$records" || true; fi
    (cd "$stage" && find . -type f | sed 's|^\./||' | sort) | while read -r file; do
        make_dirs "$prefix" "$(dirname "$file")" >>"$records"
        mode=644
        case $file in bin/*) mode=755 ;; esac
        install -m "$mode" "$stage/$file" "$prefix/$file"
        echo "file $file" >>"$records"
        echo "  $prefix/$file"
    done
    make_dirs "$prefix" "$(dirname "$manifest_path")" >>"$records"
    echo "file $manifest_path" >>"$records"
    sort -u "$records" >"$prefix/$manifest_path"
    chmod 644 "$prefix/$manifest_path"
}

uninstall_files() {
    prefix=$1
    [ -f "$prefix/$manifest_path" ] || fail "nothing to uninstall: no $prefix/$manifest_path"
    manifest=$(cat "$prefix/$manifest_path")
    echo "$manifest" | while read -r kind path; do
        if [ "$kind" = file ]; then rm -f "$prefix/$path" && echo "  removed $prefix/$path"; fi
    done
    # Folders last, deepest first, and only when empty (a user's own files stay).
    echo "$manifest" | awk '$1 == "dir" { print length($2), $2 }' | sort -rn | while read -r _ path; do
        rmdir "$prefix/$path" 2>/dev/null || true
    done
}

case ${1:-} in
install) [ $# -eq 3 ] || fail "usage: install.sh install STAGE PREFIX"; install_files "$2" "$3" ;;
uninstall) [ $# -eq 2 ] || fail "usage: install.sh uninstall PREFIX"; uninstall_files "$2" ;;
*) fail "usage: install.sh install STAGE PREFIX | uninstall PREFIX" ;;
esac
