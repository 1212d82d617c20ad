# gate/lib-base.sh — sourced (after lib.sh) by the checks that compare the working tree with a
# base commit (check-breaking.sh): which commit, and a copy of it to compare with.
#
# The base is $BASE_REF when set (CI passes the pull request's base commit), else the merge
# base of HEAD with main (or origin/main). Its files are taken from git into a temporary
# folder, so uncommitted edits here are compared too; buf cannot compare against
# `.git#ref=…` directly, because validate.proto is git-ignored: the copy gets it the way
# every copy does (contracts_workspace in lib.sh).

resolve_base() {
  if [[ -n "${BASE_REF:-}" ]]; then
    git rev-parse --verify -q "$BASE_REF^{commit}" || die "BASE_REF=$BASE_REF is not a commit here (fetch it first)"
    return
  fi
  git rev-parse --verify -q HEAD >/dev/null || return 0 # no commit yet: nothing to compare with
  local branch
  for branch in main origin/main; do
    if git rev-parse --verify -q "$branch" >/dev/null; then
      git merge-base HEAD "$branch"
      return
    fi
  done
  die "no 'main' or 'origin/main' branch to compare with; set BASE_REF to a commit"
}

# export_base WHAT — sets BASE (the commit) and AGAINST (a temporary copy of its contracts,
# removed on exit); prints why and exits 0 when there is nothing to compare WHAT with.
export_base() {
  BASE="$(resolve_base)"
  if [[ -z "$BASE" ]]; then
    echo "$1: skipped, this repository has no commit to compare with yet"
    exit 0
  fi
  AGAINST="$(mktemp -d)"
  trap 'rm -rf "$AGAINST"' EXIT
  # Only what a comparison reads: the whole commit would bring gen/ too, thousands of generated
  # files on a large tree (on 1,000 proto files, most of this check's 14 s).
  local wanted
  wanted="$(git ls-tree --name-only "$BASE" buf.yaml proto)"
  [[ -z "$wanted" ]] || git archive "$BASE" $wanted | tar -x -C "$AGAINST"
  if [[ ! -f "$AGAINST/buf.yaml" || ! -d "$AGAINST/proto" ]]; then
    echo "$1: skipped, base $(git rev-parse --short "$BASE") has no contracts yet"
    exit 0
  fi
  contracts_workspace "$AGAINST"
}
