package settings

import (
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDefaults(t *testing.T) {
	s, err := From(env(map[string]string{"WEB_PROXY_ROUTES": "acme.person.v1.PersonService=person-spring:9090"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.AllowedOrigins) != 0 {
		t.Errorf("allowed origins by default: %v, want none", s.AllowedOrigins)
	}
	if s.MaxMessageBytes != 9*1024*1024 || s.MaxHeaderBytes != 16*1024 || s.PreflightMaxAge != 2*time.Hour {
		t.Errorf("limits %d / %d / %v", s.MaxMessageBytes, s.MaxHeaderBytes, s.PreflightMaxAge)
	}
	if len(s.Routes) != 1 || s.Routes["acme.person.v1.PersonService"] != "person-spring:9090" {
		t.Errorf("routes %v", s.Routes)
	}
}

func TestRefused(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"no route", map[string]string{}, "WEB_PROXY_ROUTES"},
		{"a route without a backend", map[string]string{"WEB_PROXY_ROUTES": "acme.person.v1.PersonService"}, "service=host:port"},
		{"a wildcard origin", map[string]string{"WEB_PROXY_ROUTES": "s=b:1", "WEB_PROXY_ALLOWED_ORIGINS": "*"}, "not an origin"},
		{"an origin with a path", map[string]string{"WEB_PROXY_ROUTES": "s=b:1", "WEB_PROXY_ALLOWED_ORIGINS": "http://a.example/app"}, "not an origin"},
		{"an origin without a scheme", map[string]string{"WEB_PROXY_ROUTES": "s=b:1", "WEB_PROXY_ALLOWED_ORIGINS": "a.example"}, "not an origin"},
		{"a negative size", map[string]string{"WEB_PROXY_ROUTES": "s=b:1", "WEB_PROXY_MAX_MESSAGE_BYTES": "-1"}, "WEB_PROXY_MAX_MESSAGE_BYTES"},
		{"a bad duration", map[string]string{"WEB_PROXY_ROUTES": "s=b:1", "WEB_PROXY_PREFLIGHT_MAX_AGE": "soon"}, "WEB_PROXY_PREFLIGHT_MAX_AGE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := From(env(tt.env))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one naming %q", err, tt.want)
			}
		})
	}
}

func TestOriginList(t *testing.T) {
	s, err := From(env(map[string]string{
		"WEB_PROXY_ROUTES": "s=b:1", "WEB_PROXY_ALLOWED_ORIGINS": "http://127.0.0.1:5173, https://app.example",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(s.AllowedOrigins, "|") != "http://127.0.0.1:5173|https://app.example" {
		t.Fatalf("origins %q", s.AllowedOrigins)
	}
}
