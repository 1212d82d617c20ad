package cors

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const page = "http://127.0.0.1:5173"

func TestPolicy(t *testing.T) {
	policy := Policy{
		Origins: []string{page},
		MaxAge:  2 * time.Hour,
		Known:   func(path string) bool { return path == "/acme.person.v1.PersonService/GetPerson" },
	}
	const method = "/acme.person.v1.PersonService/GetPerson"
	tests := []struct {
		name       string
		httpMethod string
		path       string
		headers    map[string]string
		status     int
		reached    bool
		want       map[string]string // "" means the header must be absent
	}{
		{
			name: "no origin passes untouched", httpMethod: http.MethodPost, path: method,
			status: http.StatusOK, reached: true,
			want: map[string]string{"Access-Control-Allow-Origin": ""},
		},
		{
			name: "allowed origin is answered and may read the status headers", httpMethod: http.MethodPost, path: method,
			headers: map[string]string{"Origin": page},
			status:  http.StatusOK, reached: true,
			want: map[string]string{
				"Access-Control-Allow-Origin":      page,
				"Access-Control-Expose-Headers":    "grpc-status, grpc-message, grpc-status-details-bin, content-encoding, connect-content-encoding, acme-contracts-version",
				"Access-Control-Allow-Credentials": "",
			},
		},
		{
			name: "disallowed origin is refused and never forwarded", httpMethod: http.MethodPost, path: method,
			headers: map[string]string{"Origin": "http://evil.example"},
			status:  http.StatusForbidden,
			want:    map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Expose-Headers": ""},
		},
		{
			name: "an origin differing only by port is another origin", httpMethod: http.MethodPost, path: method,
			headers: map[string]string{"Origin": "http://127.0.0.1:5174"},
			status:  http.StatusForbidden,
			want:    map[string]string{"Access-Control-Allow-Origin": ""},
		},
		{
			name: "the null origin is refused", httpMethod: http.MethodPost, path: method,
			headers: map[string]string{"Origin": "null"},
			status:  http.StatusForbidden,
			want:    map[string]string{"Access-Control-Allow-Origin": ""},
		},
		{
			name: "preflight for POST with Connect's headers is cached", httpMethod: http.MethodOptions, path: method,
			headers: map[string]string{
				"Origin": page, "Access-Control-Request-Method": "POST",
				"Access-Control-Request-Headers": "authorization, connect-protocol-version, Content-Type, connect-timeout-ms",
			},
			status: http.StatusNoContent,
			want: map[string]string{
				"Access-Control-Allow-Origin":  page,
				"Access-Control-Allow-Methods": "POST, GET",
				"Access-Control-Max-Age":       "7200",
			},
		},
		{
			name: "preflight for gRPC-Web's headers", httpMethod: http.MethodOptions, path: method,
			headers: map[string]string{
				"Origin": page, "Access-Control-Request-Method": "POST",
				"Access-Control-Request-Headers": "x-grpc-web,x-user-agent,grpc-timeout,content-type,authorization",
			},
			status: http.StatusNoContent,
			want:   map[string]string{"Access-Control-Allow-Origin": page},
		},
		{
			name: "preflight for an unknown HTTP method is refused", httpMethod: http.MethodOptions, path: method,
			headers: map[string]string{"Origin": page, "Access-Control-Request-Method": "DELETE"},
			status:  http.StatusForbidden,
			want:    map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Allow-Methods": ""},
		},
		{
			name: "preflight for a header nobody reads is refused", httpMethod: http.MethodOptions, path: method,
			headers: map[string]string{"Origin": page, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "x-forwarded-for"},
			status:  http.StatusForbidden,
			want:    map[string]string{"Access-Control-Allow-Origin": ""},
		},
		{
			name: "preflight for a method the proxy does not serve is refused", httpMethod: http.MethodOptions,
			path:    "/acme.person.v1.PersonService/DropEverything",
			headers: map[string]string{"Origin": page, "Access-Control-Request-Method": "POST"},
			status:  http.StatusNotFound,
			want:    map[string]string{"Access-Control-Allow-Origin": ""},
		},
		{
			name: "preflight from a disallowed origin is refused", httpMethod: http.MethodOptions, path: method,
			headers: map[string]string{"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"},
			status:  http.StatusForbidden,
			want:    map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Max-Age": ""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reached := false
			handler := policy.Handler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				reached = true
				_, _ = w.Write([]byte("data"))
			}))
			r := httptest.NewRequest(tt.httpMethod, tt.path, strings.NewReader(""))
			for k, v := range tt.headers {
				r.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			handler.ServeHTTP(w, r)
			if w.Code != tt.status {
				t.Errorf("status %d, want %d", w.Code, tt.status)
			}
			if reached != tt.reached {
				t.Errorf("forwarded: %v, want %v", reached, tt.reached)
			}
			if !tt.reached && strings.Contains(w.Body.String(), "data") {
				t.Errorf("a refused request got the service's data")
			}
			for k, v := range tt.want {
				if got := w.Header().Get(k); got != v {
					t.Errorf("%s: %q, want %q", k, got, v)
				}
			}
		})
	}
}

func TestNoOriginIsAllowedByDefault(t *testing.T) {
	handler := Policy{MaxAge: time.Hour}.Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		t.Fatal("forwarded a request from an origin nobody allowed")
	}))
	r := httptest.NewRequest(http.MethodPost, "/x", nil)
	r.Header.Set("Origin", page)
	w := httptest.NewRecorder()
	handler.ServeHTTP(w, r)
	if w.Code != http.StatusForbidden || w.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("status %d, allow-origin %q", w.Code, w.Header().Get("Access-Control-Allow-Origin"))
	}
}
