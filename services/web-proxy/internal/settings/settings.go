// Package settings reads the proxy's configuration from its environment, once, at start-up.
// Every setting and limit is defined here with its default; README.md lists them.
package settings

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// Settings is the whole configuration of one proxy.
type Settings struct {
	// Listen is the address the proxy serves Connect and gRPC-Web on (HTTP/1.1 and h2c).
	Listen string
	// Routes maps each service the proxy translates (its fully-qualified name) to the gRPC
	// server behind it (host:port, spoken to over h2c); nothing else is forwarded.
	Routes map[string]string
	// Descriptors is a FileDescriptorSet (buf build -o) holding the services and their imports.
	Descriptors string
	// AllowedOrigins are the browser origins (scheme://host[:port]) that may call; none by
	// default, so a browser can call only once an operator names its page's origin.
	AllowedOrigins []string
	// PreflightMaxAge is how long a browser may cache a preflight's answer. Chromium caps it
	// at two hours, so more would not be honoured.
	PreflightMaxAge time.Duration
	// MaxMessageBytes bounds one message the proxy buffers to translate it. It is the
	// backend's own limit (person-spring's GRPC_MAX_INBOUND_MESSAGE_SIZE, 9 MB), so every
	// request the service accepts passes and a larger one gets RESOURCE_EXHAUSTED, as from
	// the service.
	MaxMessageBytes int64
	// MaxHeaderBytes bounds a request's header list (names + values + 32 bytes each, as
	// HTTP/2 counts it): the backend's MAX_HEADER_LIST_SIZE (16 KB), refused with
	// RESOURCE_EXHAUSTED as the service refuses it.
	MaxHeaderBytes int
	// ReadHeaderTimeout is how long a client may take to send its request's headers.
	ReadHeaderTimeout time.Duration
}

// From reads the settings from getenv (os.Getenv in production); every error names the
// variable.
func From(getenv func(string) string) (Settings, error) {
	s := Settings{
		Listen:            value(getenv, "WEB_PROXY_LISTEN", ":8088"),
		Routes:            map[string]string{},
		Descriptors:       value(getenv, "WEB_PROXY_DESCRIPTORS", "/etc/web-proxy/contracts.binpb"),
		AllowedOrigins:    list(getenv("WEB_PROXY_ALLOWED_ORIGINS")),
		PreflightMaxAge:   2 * time.Hour,
		MaxMessageBytes:   9 << 20,
		MaxHeaderBytes:    16 << 10,
		ReadHeaderTimeout: 10 * time.Second,
	}
	var errs []error
	for _, route := range list(getenv("WEB_PROXY_ROUTES")) {
		service, backend, ok := strings.Cut(route, "=")
		if !ok || service == "" || !strings.Contains(backend, ":") {
			errs = append(errs, fmt.Errorf("WEB_PROXY_ROUTES: %q is not service=host:port", route))
			continue
		}
		s.Routes[service] = backend
	}
	if len(s.Routes) == 0 && len(errs) == 0 {
		errs = append(errs, errors.New("WEB_PROXY_ROUTES must name at least one service=host:port"))
	}
	for _, origin := range s.AllowedOrigins {
		if err := checkOrigin(origin); err != nil {
			errs = append(errs, fmt.Errorf("WEB_PROXY_ALLOWED_ORIGINS: %w", err))
		}
	}
	var err error
	if s.PreflightMaxAge, err = duration(getenv, "WEB_PROXY_PREFLIGHT_MAX_AGE", s.PreflightMaxAge); err != nil {
		errs = append(errs, err)
	}
	if s.MaxMessageBytes, err = size(getenv, "WEB_PROXY_MAX_MESSAGE_BYTES", s.MaxMessageBytes); err != nil {
		errs = append(errs, err)
	}
	headerBytes, err := size(getenv, "WEB_PROXY_MAX_HEADER_BYTES", int64(s.MaxHeaderBytes))
	if err != nil {
		errs = append(errs, err)
	}
	s.MaxHeaderBytes = int(headerBytes)
	return s, errors.Join(errs...)
}

// checkOrigin accepts exactly what a browser sends in Origin: a scheme, a host, an optional
// port, nothing else. "*" is refused: every allowed origin is named.
func checkOrigin(origin string) error {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("%q is not an origin (scheme://host[:port], no path, no wildcard)", origin)
	}
	return nil
}

func value(getenv func(string) string, name, fallback string) string {
	if v := getenv(name); v != "" {
		return v
	}
	return fallback
}

// list splits a comma- or space-separated setting, dropping empty entries.
func list(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })
}

func duration(getenv func(string) string, name string, fallback time.Duration) (time.Duration, error) {
	v := getenv(name)
	if v == "" {
		return fallback, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s: %q is not a duration such as 2h or 90s", name, v)
	}
	return d, nil
}

func size(getenv func(string) string, name string, fallback int64) (int64, error) {
	v := getenv(name)
	if v == "" {
		return fallback, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s: %q is not a positive number of bytes", name, v)
	}
	return n, nil
}

// Getenv is os.Getenv, for From in production.
var Getenv = os.Getenv
