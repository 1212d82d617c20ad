package proxy

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoregistry"
)

func TestHeaderLimit(t *testing.T) {
	handler := headerLimit(1024, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("forwarded"))
	}))
	tests := []struct {
		name        string
		contentType string
		header      int
		// what the browser's client reads: the HTTP status and where the code is
		status     int
		grpcStatus string
		body       string
	}{
		{"under the limit, Connect", "application/json", 100, http.StatusOK, "", "forwarded"},
		{"over the limit, Connect", "application/json", 2000, http.StatusTooManyRequests, "", `"code":"resource_exhausted"`},
		{"over the limit, gRPC-Web", "application/grpc-web+proto", 2000, http.StatusOK, "8", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/acme.person.v1.PersonService/GetPerson", strings.NewReader(""))
			r.Header.Set("Content-Type", tt.contentType)
			if strings.HasPrefix(tt.contentType, "application/json") {
				r.Header.Set("Connect-Protocol-Version", "1")
			}
			r.Header.Set("Authorization", "Bearer "+strings.Repeat("a", tt.header))
			w := httptest.NewRecorder()
			handler.ServeHTTP(w, r)
			body, _ := io.ReadAll(w.Body)
			if w.Code != tt.status {
				t.Errorf("status %d, want %d", w.Code, tt.status)
			}
			if got := w.Header().Get("Grpc-Status"); got != tt.grpcStatus {
				t.Errorf("grpc-status %q, want %q", got, tt.grpcStatus)
			}
			if !strings.Contains(string(body), tt.body) {
				t.Errorf("body %q, want it to contain %q", body, tt.body)
			}
		})
	}
}

func TestUnknownServiceIsAnError(t *testing.T) {
	_, err := New(Options{
		Routes: map[string]string{"acme.person.v1.PersonService": "127.0.0.1:1"}, Files: new(protoregistry.Files),
		MaxMessageBytes: 1024, MaxHeaderBytes: 1024, Log: slog.Default(),
	})
	if err == nil || !strings.Contains(err.Error(), "acme.person.v1.PersonService") {
		t.Fatalf("error %v, want one naming the service", err)
	}
}

func TestLoadFilesNamesTheFile(t *testing.T) {
	_, err := LoadFiles("/nonexistent/contracts.binpb")
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/contracts.binpb") {
		t.Fatalf("error %v, want one naming the file", err)
	}
}

func TestRewriteAsksForUncompressedAnswers(t *testing.T) {
	in := httptest.NewRequest(http.MethodPost, "http://proxy/acme.auth.v1.AuthService/Login", nil)
	in.Header.Set("Grpc-Accept-Encoding", "gzip")
	in.Header.Set("Authorization", "Bearer t")
	in.Header.Set("Origin", "http://127.0.0.1:5173")
	pr := &httputil.ProxyRequest{In: in, Out: in.Clone(in.Context())}
	rewrite(&url.URL{Scheme: "http", Host: "auth-node:50051"})(pr)
	if pr.Out.URL.Host != "auth-node:50051" || pr.Out.URL.Path != "/acme.auth.v1.AuthService/Login" {
		t.Errorf("forwarded to %s", pr.Out.URL)
	}
	if got := pr.Out.Header.Get("Grpc-Accept-Encoding"); got != "" {
		t.Errorf("grpc-accept-encoding %q went to the backend", got)
	}
	if got := pr.Out.Header.Get("Origin"); got != "" {
		t.Errorf("the page's origin %q went to the backend", got)
	}
	if pr.Out.Header.Get("Authorization") != "Bearer t" {
		t.Errorf("the authorization header was lost")
	}
}

func TestTheBackendsCorsHeadersAreDropped(t *testing.T) {
	res := &http.Response{Header: http.Header{}}
	res.Header.Set("Access-Control-Allow-Origin", "http://127.0.0.1:5173")
	res.Header.Set("Access-Control-Expose-Headers", "grpc-status")
	res.Header.Set("Grpc-Status", "0")
	proxy := forward("auth-node:50051", slog.Default()).(*httputil.ReverseProxy)
	if err := proxy.ModifyResponse(res); err != nil {
		t.Fatal(err)
	}
	if res.Header.Get("Access-Control-Allow-Origin") != "" || res.Header.Get("Access-Control-Expose-Headers") != "" {
		t.Errorf("the backend's CORS headers stayed: %v", res.Header)
	}
	if res.Header.Get("Grpc-Status") != "0" {
		t.Errorf("grpc-status was lost")
	}
}
