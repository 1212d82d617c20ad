package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/acme/contracts/registry/service"
)

// Auth checks the bearer tokens of writes (and of reads, when Reads is set) with the auth
// service's ValidateToken, on its REST/JSON port: the tokens every acme service accepts, no
// second user store.
type Auth struct {
	// URL is the auth service's REST base (http://host:port); it answers POST /api/validate.
	URL string
	// Role is the role a token must grant to write (register a version, set a level).
	Role string
	// Reads: reads need a valid token too (any role).
	Reads  bool
	Client *http.Client
}

// AuthTimeout bounds one ValidateToken call.
const AuthTimeout = 5 * time.Second

// check answers whether a request may go on; it writes the refusal when not.
func (a *Auth) check(w http.ResponseWriter, r *http.Request, write bool) bool {
	if a == nil || (!write && !a.Reads) {
		return true
	}
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || strings.TrimSpace(token) == "" {
		writeError(w, &service.Error{Code: 401, Message: "Unauthorized: a bearer token from the auth service is required"})
		return false
	}
	roles, err := a.validate(r.Context(), strings.TrimSpace(token))
	if err != nil {
		writeError(w, err)
		return false
	}
	if write && !slices.Contains(roles, a.Role) {
		writeError(w, &service.Error{Code: 40301, Message: "Forbidden: writing needs the role " + a.Role})
		return false
	}
	return true
}

func (a *Auth) validate(ctx context.Context, token string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, AuthTimeout)
	defer cancel()
	body, _ := json.Marshal(map[string]string{"token": token})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(a.URL, "/")+"/api/validate", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	client := a.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, &service.Error{Code: 50301, Message: "The auth service cannot be reached to check the token"}
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusOK:
	case resp.StatusCode >= 400 && resp.StatusCode < 500:
		return nil, &service.Error{Code: 401, Message: "Unauthorized: the auth service does not accept the token"}
	default:
		return nil, &service.Error{Code: 50301, Message: fmt.Sprintf("The auth service answered %d to the token check", resp.StatusCode)}
	}
	var answer struct {
		Subject string   `json:"subject"`
		Roles   []string `json:"roles"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(nil, resp.Body, 1<<16)).Decode(&answer); err != nil || answer.Subject == "" {
		return nil, &service.Error{Code: 50301, Message: "The auth service's answer to the token check is not a ValidateTokenResponse"}
	}
	return answer.Roles, nil
}
