// Package cors lets the pages of named origins call the proxy, and nobody else's.
//
// What a browser may send and read is Connect's own list (the constants @connectrpc/connect
// exports as `cors`, which the browser suite checks against this one), plus the header our
// services read (authorization) and the one they answer with (acme-contracts-version).
//
// Unlike a permissive middleware that only leaves the headers out, a request that carries an
// Origin not on the list is refused here and never reaches the service: a browser would hide
// the answer from the page anyway, but the call — a person registered — would have happened.
// Requests without an Origin (servers, command-line clients) are not the browser's concern and
// pass. Credentials (cookies) are never allowed: the services authenticate with a bearer token.
package cors

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// AllowedMethods are the HTTP methods Connect and gRPC-Web use.
var AllowedMethods = []string{http.MethodPost, http.MethodGet}

// AllowedHeaders are the request headers a page may send (lower case).
var AllowedHeaders = []string{
	"content-type",
	"connect-protocol-version",
	"connect-timeout-ms",
	"connect-content-encoding",
	"connect-accept-encoding",
	"content-encoding",
	"accept-encoding",
	"grpc-message-type",
	"x-grpc-web",
	"x-user-agent",
	"grpc-timeout",
	"authorization",
}

// ExposedHeaders are the response headers a page may read: gRPC-Web's status, message and
// error details (in the headers of a trailers-only answer), Connect's encodings, and the
// contracts version the services name.
var ExposedHeaders = []string{
	"grpc-status",
	"grpc-message",
	"grpc-status-details-bin",
	"content-encoding",
	"connect-content-encoding",
	"acme-contracts-version",
}

// Policy is who may call and for how long a browser may remember a preflight's answer.
type Policy struct {
	Origins []string
	MaxAge  time.Duration
	// Known tells whether a path is a method the proxy serves; a preflight for another is
	// refused.
	Known func(path string) bool
}

// Handler wraps next with the policy.
func (p Policy) Handler(next http.Handler) http.Handler {
	allowHeaders := strings.Join(AllowedHeaders, ", ")
	allowMethods := strings.Join(AllowedMethods, ", ")
	exposeHeaders := strings.Join(ExposedHeaders, ", ")
	maxAge := strconv.Itoa(int(p.MaxAge.Seconds()))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		preflight := r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
		if origin == "" && !preflight {
			next.ServeHTTP(w, r)
			return
		}
		// Caches must keep one answer per origin: the headers depend on it.
		w.Header().Add("Vary", "Origin")
		if !slices.Contains(p.Origins, origin) {
			refuse(w, http.StatusForbidden, "origin not allowed")
			return
		}
		if !preflight {
			w.Header().Set("Access-Control-Allow-Origin", origin)
			w.Header().Set("Access-Control-Expose-Headers", exposeHeaders)
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", "Access-Control-Request-Method")
		w.Header().Add("Vary", "Access-Control-Request-Headers")
		if !slices.Contains(AllowedMethods, r.Header.Get("Access-Control-Request-Method")) {
			refuse(w, http.StatusForbidden, "method not allowed")
			return
		}
		for _, h := range requestedHeaders(r) {
			if !slices.Contains(AllowedHeaders, h) {
				refuse(w, http.StatusForbidden, "header not allowed: "+h)
				return
			}
		}
		if p.Known != nil && !p.Known(r.URL.Path) {
			refuse(w, http.StatusNotFound, "no such method")
			return
		}
		w.Header().Set("Access-Control-Allow-Origin", origin)
		w.Header().Set("Access-Control-Allow-Methods", allowMethods)
		w.Header().Set("Access-Control-Allow-Headers", allowHeaders)
		w.Header().Set("Access-Control-Max-Age", maxAge)
		w.WriteHeader(http.StatusNoContent)
	})
}

// requestedHeaders is the preflight's Access-Control-Request-Headers, lower case.
func requestedHeaders(r *http.Request) []string {
	var out []string
	for _, line := range r.Header.Values("Access-Control-Request-Headers") {
		for _, h := range strings.Split(line, ",") {
			if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
				out = append(out, h)
			}
		}
	}
	return out
}

// refuse answers without any Access-Control-* header, so a browser hands the page nothing.
func refuse(w http.ResponseWriter, status int, why string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(why + "\n"))
}
