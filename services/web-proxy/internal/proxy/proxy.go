// Package proxy translates the browser's protocols (Connect, unary and server-streaming, and
// gRPC-Web) into gRPC for one backend, with Vanguard, the Connect team's transcoder. The
// backend keeps every decision: validation, authentication, deadlines and error details reach
// the browser as the service made them. What the proxy itself must hold in memory it bounds
// with the service's own limits, and refuses with the service's code.
package proxy

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"

	"connectrpc.com/connect"
	"connectrpc.com/vanguard"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Options configure New.
type Options struct {
	// Routes maps each service to its gRPC server, host:port (h2c).
	Routes map[string]string
	// Files are the compiled contracts; the routes' services are looked up in them.
	Files *protoregistry.Files
	// MaxMessageBytes and MaxHeaderBytes are the backend's limits (settings.Settings).
	MaxMessageBytes int64
	MaxHeaderBytes  int
	Log             *slog.Logger
}

// Proxy is the translating handler and the routes it serves.
type Proxy struct {
	http.Handler
	methods map[string]bool
}

// LoadFiles reads a FileDescriptorSet (buf build -o FILE).
func LoadFiles(path string) (*protoregistry.Files, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read descriptors: %w", err)
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(data, &set); err != nil {
		return nil, fmt.Errorf("decode descriptors %s: %w", path, err)
	}
	files, err := protodesc.NewFiles(&set)
	if err != nil {
		return nil, fmt.Errorf("link descriptors %s: %w", path, err)
	}
	return files, nil
}

// New builds the proxy for the routes' services.
func New(opts Options) (*Proxy, error) {
	services := make([]*vanguard.Service, 0, len(opts.Routes))
	methods := map[string]bool{}
	for name, backend := range opts.Routes {
		d, err := opts.Files.FindDescriptorByName(protoreflect.FullName(name))
		if err != nil {
			return nil, fmt.Errorf("service %s: not in the descriptors: %w", name, err)
		}
		sd, ok := d.(protoreflect.ServiceDescriptor)
		if !ok {
			return nil, fmt.Errorf("service %s: is not a service", name)
		}
		for i := 0; i < sd.Methods().Len(); i++ {
			methods["/"+name+"/"+string(sd.Methods().Get(i).Name())] = true
		}
		services = append(services, vanguard.NewServiceWithSchema(sd, withDeadline(forward(backend, opts.Log)),
			vanguard.WithTargetProtocols(vanguard.ProtocolGRPC),
			vanguard.WithTargetCodecs(vanguard.CodecProto),
			vanguard.WithMaxMessageBufferBytes(uint32(opts.MaxMessageBytes)),
			// The backend is next door on a private network: compressing for it costs CPU and
			// saves nothing.
			vanguard.WithNoTargetCompression(),
		))
	}
	transcoder, err := vanguard.NewTranscoder(services,
		vanguard.WithUnknownHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if methods[r.URL.Path] {
				// A served method, but neither Connect (which names its version in
				// connect-protocol-version), gRPC-Web nor gRPC: what a Connect server answers.
				w.Header().Set("Accept-Post", "application/json, application/proto, application/connect+json, "+
					"application/connect+proto, application/grpc-web+proto, application/grpc-web+json, application/grpc")
				http.Error(w, "not a Connect, gRPC-Web or gRPC request", http.StatusUnsupportedMediaType)
				return
			}
			_ = connect.NewErrorWriter().Write(w, r, connect.NewError(connect.CodeUnimplemented, fmt.Errorf("%s is not served here", r.URL.Path)))
		})),
	)
	if err != nil {
		return nil, fmt.Errorf("build transcoder: %w", err)
	}
	return &Proxy{Handler: headerLimit(opts.MaxHeaderBytes, transcoder), methods: methods}, nil
}

// forward sends gRPC calls to backend over h2c.
func forward(backend string, log *slog.Logger) http.Handler {
	target := &url.URL{Scheme: "http", Host: backend}
	var protocols http.Protocols
	protocols.SetUnencryptedHTTP2(true) // gRPC: HTTP/2 without TLS inside the private network
	return &httputil.ReverseProxy{
		Rewrite: rewrite(target),
		// The proxy answers the browser's CORS itself (internal/cors); a backend that also
		// allows the origin would add its own Access-Control-* headers, and a browser refuses
		// an answer that names the origin twice.
		ModifyResponse: func(res *http.Response) error {
			for name := range res.Header {
				if strings.HasPrefix(name, "Access-Control-") {
					res.Header.Del(name)
				}
			}
			return nil
		},
		Transport:     &http.Transport{Protocols: &protocols, ForceAttemptHTTP2: true},
		FlushInterval: -1, // a server stream's messages go out as they come
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			switch {
			case errors.Is(r.Context().Err(), context.DeadlineExceeded):
				// The caller's deadline passed while the backend had the call: its code.
				_ = connect.NewErrorWriter().Write(w, r, connect.NewError(connect.CodeDeadlineExceeded, errors.New("the deadline passed")))
				return
			case r.Context().Err() != nil:
				// The caller cancelled the call: nobody is waiting for an answer.
				return
			}
			var refused *connect.Error
			if errors.As(err, &refused) {
				// Vanguard refused the request while it was being sent (a message over the
				// limit): its code, not the backend's fault.
				_ = connect.NewErrorWriter().Write(w, r, refused)
				return
			}
			// The backend did not answer: what a gRPC client would see, UNAVAILABLE.
			log.Warn("backend unreachable", "backend", backend, "path", r.URL.Path, "error", err)
			_ = connect.NewErrorWriter().Write(w, r, connect.NewError(connect.CodeUnavailable, errors.New("the service is unavailable")))
		},
	}
}

// rewrite points a call at target. It also asks the backend for uncompressed answers: the two
// are next door, and Vanguard v0.4.0 turns a backend's "grpc-encoding: gzip" into
// "Content-Encoding: gzip" on a Connect answer even when the message itself went uncompressed
// (a gRPC server may do that: the flag is per message), which Chromium then fails to decode
// (net::ERR_CONTENT_DECODING_FAILED). Connect for Node, auth-node's server, answers exactly so.
func rewrite(target *url.URL) func(*httputil.ProxyRequest) {
	return func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		r.Out.Host = r.In.Host
		r.Out.Header.Del("Grpc-Accept-Encoding")
		// The backend is not talking to a browser: the proxy is, and has judged the origin.
		r.Out.Header.Del("Origin")
	}
}

// Known tells whether path is a method the proxy serves.
func (p *Proxy) Known(path string) bool { return p.methods[path] }

// headerLimit refuses a header list over limit bytes, counted as HTTP/2 counts it (name,
// value and 32 bytes per field), with RESOURCE_EXHAUSTED in the request's own protocol — what
// the backend answers to the same headers.
func headerLimit(limit int, next http.Handler) http.Handler {
	errs := connect.NewErrorWriter()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		size := 0
		for name, values := range r.Header {
			for _, v := range values {
				size += len(name) + len(v) + 32
			}
		}
		if size > limit {
			_ = errs.Write(w, r, connect.NewError(connect.CodeResourceExhausted,
				fmt.Errorf("the request's headers are %d bytes, over the limit of %d", size, limit)))
			return
		}
		next.ServeHTTP(w, r)
	})
}
