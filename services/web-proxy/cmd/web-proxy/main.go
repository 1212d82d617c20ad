// Command web-proxy lets browsers call a gRPC-only service: it accepts Connect and gRPC-Web
// (HTTP/1.1 or h2c) from the origins it is told to allow and forwards each call as gRPC.
// Configured by environment (internal/settings; README.md lists every variable).
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/acme/contracts/services/web-proxy/internal/cors"
	"github.com/acme/contracts/services/web-proxy/internal/proxy"
	"github.com/acme/contracts/services/web-proxy/internal/settings"
)

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	if err := run(log); err != nil {
		log.Error("web-proxy stopped", "error", err.Error())
		os.Exit(1)
	}
}

func run(log *slog.Logger) error {
	s, err := settings.From(settings.Getenv)
	if err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	files, err := proxy.LoadFiles(s.Descriptors)
	if err != nil {
		return err
	}
	p, err := proxy.New(proxy.Options{
		Routes: s.Routes, Files: files,
		MaxMessageBytes: s.MaxMessageBytes, MaxHeaderBytes: s.MaxHeaderBytes, Log: log,
	})
	if err != nil {
		return err
	}
	var protocols http.Protocols
	protocols.SetHTTP1(true)            // browsers over plain http
	protocols.SetUnencryptedHTTP2(true) // other clients, with prior knowledge
	server := &http.Server{
		Handler:           cors.Policy{Origins: s.AllowedOrigins, MaxAge: s.PreflightMaxAge, Known: p.Known}.Handler(p),
		Protocols:         &protocols,
		ReadHeaderTimeout: s.ReadHeaderTimeout,
		// Go's own cap on a request's header block, above the limit the proxy enforces, so
		// that the proxy (not Go's bare 431) answers an oversized one.
		MaxHeaderBytes: 2 * s.MaxHeaderBytes,
	}
	listener, err := net.Listen("tcp", s.Listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.Listen, err)
	}
	log.Info("web proxy listening", "address", listener.Addr().String(), "routes", s.Routes,
		"allowed_origins", s.AllowedOrigins)

	stop, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- server.Serve(listener) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-stop.Done():
	}
	// Calls in progress finish (a server stream included) within the grace period.
	ctx, done := context.WithTimeout(context.Background(), 20*time.Second)
	defer done()
	if err := server.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shut down: %w", err)
	}
	log.Info("web proxy stopped")
	return nil
}
