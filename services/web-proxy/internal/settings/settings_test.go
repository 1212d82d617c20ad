package settings

import (
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDefaults(t *testing.T) {
	s, err := From(env(map[string]string{"WEB_PROXY_BACKEND": "person-spring:9090"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.AllowedOrigins) != 0 {
		t.Errorf("allowed origins by default: %v, want none", s.AllowedOrigins)
	}
	if s.MaxMessageBytes != 9*1024*1024 || s.MaxHeaderBytes != 16*1024 || s.PreflightMaxAge != 2*time.Hour {
		t.Errorf("limits %d / %d / %v", s.MaxMessageBytes, s.MaxHeaderBytes, s.PreflightMaxAge)
	}
	if strings.Join(s.Services, ",") != "acme.person.v1.PersonService" {
		t.Errorf("services %v", s.Services)
	}
}

func TestRefused(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"no backend", map[string]string{}, "WEB_PROXY_BACKEND"},
		{"a wildcard origin", map[string]string{"WEB_PROXY_BACKEND": "b:1", "WEB_PROXY_ALLOWED_ORIGINS": "*"}, "not an origin"},
		{"an origin with a path", map[string]string{"WEB_PROXY_BACKEND": "b:1", "WEB_PROXY_ALLOWED_ORIGINS": "http://a.example/app"}, "not an origin"},
		{"an origin without a scheme", map[string]string{"WEB_PROXY_BACKEND": "b:1", "WEB_PROXY_ALLOWED_ORIGINS": "a.example"}, "not an origin"},
		{"a negative size", map[string]string{"WEB_PROXY_BACKEND": "b:1", "WEB_PROXY_MAX_MESSAGE_BYTES": "-1"}, "WEB_PROXY_MAX_MESSAGE_BYTES"},
		{"a bad duration", map[string]string{"WEB_PROXY_BACKEND": "b:1", "WEB_PROXY_PREFLIGHT_MAX_AGE": "soon"}, "WEB_PROXY_PREFLIGHT_MAX_AGE"},
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
		"WEB_PROXY_BACKEND": "b:1", "WEB_PROXY_ALLOWED_ORIGINS": "http://127.0.0.1:5173, https://app.example",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(s.AllowedOrigins, "|") != "http://127.0.0.1:5173|https://app.example" {
		t.Fatalf("origins %q", s.AllowedOrigins)
	}
}
