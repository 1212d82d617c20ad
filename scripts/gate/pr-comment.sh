#!/usr/bin/env bash
# gate/pr-comment.sh REPORT.md — the pull request's one report comment, created on the first run
# and edited on every later one (found by the marker its first line carries), so a pull request
# shows the gate's latest word instead of a comment per push. Run by the pull-request workflow
# with GH_TOKEN (pull-requests: write), GITHUB_REPOSITORY and PR_NUMBER; needs the gh CLI.
set -euo pipefail
report="${1:?usage: pr-comment.sh REPORT.md}"
: "${GITHUB_REPOSITORY:?}" "${PR_NUMBER:?}"
marker="$(head -n 1 "$report")"
[[ "$marker" == "<!--"* ]] || { echo "error: $report does not start with its marker comment" >&2; exit 1; }
existing="$(gh api --paginate "repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" \
  --jq ".[] | select(.body | startswith(\"$marker\")) | .id" | head -n 1)"
if [[ -n "$existing" ]]; then
  gh api -X PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$existing" -F "body=@$report" >/dev/null
  echo "updated the report comment $existing"
else
  gh api -X POST "repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" -F "body=@$report" >/dev/null
  echo "posted the report comment"
fi
