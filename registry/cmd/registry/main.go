// Command registry serves protobuf schemas over Confluent Schema Registry's REST API, judging
// compatibility with the governance gate's own comparison (buf's rules and the VALIDATE_…
// rules of the gate's check plugin, under the contracts' buf.yaml).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/acme/contracts/gate/bufcli"
	"github.com/acme/contracts/gate/compare"
	"github.com/acme/contracts/registry/api"
	"github.com/acme/contracts/registry/schema"
	"github.com/acme/contracts/registry/service"
	"github.com/acme/contracts/registry/store"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "registry:", err)
		os.Exit(1)
	}
}

func run() error {
	listen := flag.String("listen", "127.0.0.1:8081", "address to serve on (port 0: any free port, printed)")
	db := flag.String("db", "registry.db", "the SQLite database")
	bufConfig := flag.String("buf-config", "buf.yaml", "the buf.yaml whose breaking rules and plugins judge compatibility (the contracts' own)")
	bufBin := flag.String("buf", "buf", "the buf executable; the plugins the configuration names must be on PATH")
	fillFrom := flag.String("fill-from-releases", "", "a git repository whose release tags (v*) register the files under -proto-dir, oldest first, before serving")
	protoDir := flag.String("proto-dir", "proto", "the folder of the contracts in -fill-from-releases's repository")
	authURL := flag.String("auth-url", "", "the auth service's REST base (http://host:port): writes then need its bearer token (empty: open)")
	writeRole := flag.String("write-role", "ROLE_ADMIN", "the role a token must grant to write")
	authReads := flag.Bool("auth-reads", false, "reads need a valid token too")
	flag.Parse()

	config, err := filepath.Abs(*bufConfig)
	if err != nil {
		return err
	}
	if _, err := os.Stat(config); err != nil {
		return fmt.Errorf("the buf configuration: %w", err)
	}
	st, err := store.Open(*db)
	if err != nil {
		return err
	}
	defer st.Close()
	judge := schema.Judge{Comparer: compare.Comparer{Buf: bufcli.Buf{Dir: filepath.Dir(config), Bin: *bufBin}, Config: config}}
	registry := service.New(st, judge)
	if *fillFrom != "" {
		n, err := registry.FillFromReleases(context.Background(), *fillFrom, *protoDir)
		if err != nil {
			return fmt.Errorf("fill from the releases of %s: %w", *fillFrom, err)
		}
		log.Printf("filled from %d releases of %s", n, *fillFrom)
	}
	var auth *api.Auth
	if *authURL != "" {
		auth = &api.Auth{URL: *authURL, Role: *writeRole, Reads: *authReads}
	}
	server := &http.Server{
		Handler:           (&api.Server{Registry: registry, Auth: auth}).Handler(),
		ReadHeaderTimeout: 10 * time.Second,
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	// The first line of standard output is the address: a test that starts the registry on
	// port 0 reads it.
	fmt.Printf("listening on http://%s\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = server.Shutdown(shutdown)
	}()
	if err := server.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Print("stopped")
	return nil
}
