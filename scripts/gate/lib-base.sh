# gate/lib-base.sh — sourced (after lib.sh) by the checks that compare the working tree with
# another commit: which commit is the base (check-breaking.sh), and which proto files differ
# from a commit (check-breaking.sh, check-releases.sh).
#
# The base is $BASE_REF when set (CI passes the pull request's base commit), else the merge
# base of HEAD with main (or origin/main). Its contracts are compiled from git (image-at.sh),
# so uncommitted edits here are compared too.

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

# changed_since REV… — for each REV, one line: what compare.py needs to know of the proto files
# that differ between REV and the working tree (uncommitted and untracked files too): ALL when one
# was deleted (its loss is judged on the whole tree), NONE when none differs, else their paths
# under proto/, by commas.
changed_since() {
  local rev f all list=() untracked=()
  mapfile -t untracked < <(git ls-files --others --exclude-standard -- proto)
  for rev in "$@"; do
    all=0 list=()
    while IFS= read -r f; do
      [[ "$f" == *.proto ]] || continue
      [[ -f "$f" ]] || { all=1 && break; }
      list+=("${f#proto/}")
    done < <(git diff --no-renames --name-only "$rev" -- proto && printf '%s\n' "${untracked[@]}")
    if ((all)); then echo ALL; elif ((${#list[@]})); then (IFS=,; echo "${list[*]}"); else echo NONE; fi
  done
}
