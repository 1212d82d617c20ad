package run

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// fakeIssues is GitHub's issue-comments API for one pull request, in memory.
type fakeIssues struct {
	mu       sync.Mutex
	comments []map[string]any
}

func (f *fakeIssues) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer token" {
		http.Error(w, "bad credentials", http.StatusUnauthorized)
		return
	}
	var body map[string]string
	_ = json.NewDecoder(r.Body).Decode(&body)
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/repos/acme/contracts/issues/5/comments":
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
		lo, hi := min((page-1)*per, len(f.comments)), min(page*per, len(f.comments))
		_ = json.NewEncoder(w).Encode(f.comments[lo:hi])
	case r.Method == http.MethodPost && r.URL.Path == "/repos/acme/contracts/issues/5/comments":
		f.comments = append(f.comments, map[string]any{"id": 100 + len(f.comments), "body": body["body"]})
		w.WriteHeader(http.StatusCreated)
	case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/repos/acme/contracts/issues/comments/"):
		id, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/repos/acme/contracts/issues/comments/"))
		for _, c := range f.comments {
			if c["id"] == id {
				c["body"] = body["body"]
			}
		}
	default:
		http.NotFound(w, r)
	}
}

func TestThePullRequestCommentIsPostedOnceThenEdited(t *testing.T) {
	issues := &fakeIssues{comments: []map[string]any{{"id": 7, "body": "a reviewer's comment"}}}
	for i := 0; i < 120; i++ { // the report's comment is found beyond the first page
		issues.comments = append(issues.comments, map[string]any{"id": 1000 + i, "body": "chatter"})
	}
	server := httptest.NewServer(issues)
	defer server.Close()
	gh := GitHub{API: server.URL, Token: "token", Repo: "acme/contracts"}
	var said []string
	for run := 1; run <= 3; run++ {
		what, err := PRComment(context.Background(), gh, 5, "<!-- contracts-gate-report -->\nrun "+strconv.Itoa(run))
		if err != nil {
			t.Fatal(err)
		}
		said = append(said, what)
	}
	var reports []string
	for _, c := range issues.comments {
		if b := c["body"].(string); strings.HasPrefix(b, "<!--") {
			reports = append(reports, b)
		}
	}
	if len(reports) != 1 || reports[0] != "<!-- contracts-gate-report -->\nrun 3" || issues.comments[0]["body"] != "a reviewer's comment" {
		t.Fatalf("comments: %v", reports)
	}
	if said[0] != "posted the report comment" || !strings.HasPrefix(said[2], "updated the report comment") {
		t.Errorf("said %v", said)
	}
}

func TestAReportWithoutItsMarkerIsRefused(t *testing.T) {
	if _, err := PRComment(context.Background(), GitHub{}, 5, "## a report"); err == nil {
		t.Fatal("posted a report GitHub could not find again")
	}
}

func TestAnAPIErrorIsReported(t *testing.T) {
	server := httptest.NewServer(&fakeIssues{})
	defer server.Close()
	_, err := PRComment(context.Background(), GitHub{API: server.URL, Token: "wrong", Repo: "acme/contracts"}, 5, "<!-- contracts-gate-report -->")
	if err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("err %v", err)
	}
}
