package run

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/acme/contracts/gate/report"
)

// GitHub is the part of GitHub's REST API the pull-request comment needs.
type GitHub struct {
	API   string // e.g. GITHUB_API_URL
	Token string
	Repo  string // owner/name
	// Client is the HTTP client (http.DefaultClient when nil).
	Client *http.Client
}

// PRComment keeps one report comment on a pull request: created on the first run, edited on
// every later one (found by the marker its first line carries), so the pull request shows the
// gate's latest word instead of a comment per push. It says which it did.
func PRComment(ctx context.Context, gh GitHub, pr int, body string) (string, error) {
	if !strings.HasPrefix(body, report.Marker) {
		return "", fmt.Errorf("the report does not start with its marker %s", report.Marker)
	}
	existing := int64(0)
	for page := 1; existing == 0; page++ {
		var comments []struct {
			ID   int64  `json:"id"`
			Body string `json:"body"`
		}
		url := fmt.Sprintf("%s/repos/%s/issues/%d/comments?per_page=100&page=%d", gh.API, gh.Repo, pr, page)
		if err := gh.do(ctx, http.MethodGet, url, nil, &comments); err != nil {
			return "", err
		}
		if len(comments) == 0 {
			break
		}
		for _, c := range comments {
			if strings.HasPrefix(c.Body, report.Marker) {
				existing = c.ID
				break
			}
		}
	}
	payload := map[string]string{"body": body}
	if existing != 0 {
		url := fmt.Sprintf("%s/repos/%s/issues/comments/%d", gh.API, gh.Repo, existing)
		return fmt.Sprintf("updated the report comment %d", existing), gh.do(ctx, http.MethodPatch, url, payload, nil)
	}
	url := fmt.Sprintf("%s/repos/%s/issues/%d/comments", gh.API, gh.Repo, pr)
	return "posted the report comment", gh.do(ctx, http.MethodPost, url, payload, nil)
}

func (gh GitHub) do(ctx context.Context, method, url string, in, out any) error {
	var body io.Reader
	if in != nil {
		data, _ := json.Marshal(in)
		body = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("Authorization", "Bearer "+gh.Token)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	client := gh.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		return fmt.Errorf("%s %s: %s %s", method, url, resp.Status, strings.TrimSpace(string(msg)))
	}
	if out != nil {
		return json.NewDecoder(resp.Body).Decode(out)
	}
	return nil
}

// GitHubFromEnv reads the workflow's environment: GITHUB_API_URL, GH_TOKEN, GITHUB_REPOSITORY.
func GitHubFromEnv() (GitHub, error) {
	gh := GitHub{API: env("GITHUB_API_URL", "https://api.github.com"), Token: os.Getenv("GH_TOKEN"), Repo: os.Getenv("GITHUB_REPOSITORY")}
	if gh.Token == "" || gh.Repo == "" {
		return gh, fmt.Errorf("GH_TOKEN and GITHUB_REPOSITORY must be set (the pull-request workflow sets them)")
	}
	return gh, nil
}
