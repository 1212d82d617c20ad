package proxy

import (
	"context"
	"net/http"
	"strconv"
	"time"
)

// withDeadline holds a call to the deadline its caller gave (grpc-timeout, into which Vanguard
// turns Connect's connect-timeout-ms and gRPC-Web's grpc-timeout), as a gRPC client library
// does. The backend gets the same deadline in the same header, but when it passes first there
// grpc-java only resets the stream — a gRPC client reports DEADLINE_EXCEEDED from its own
// timer — so without this the proxy would see a reset and answer UNAVAILABLE.
func withDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if timeout, ok := grpcTimeout(r.Header.Get("Grpc-Timeout")); ok {
			ctx, cancel := context.WithTimeout(r.Context(), timeout)
			defer cancel()
			r = r.WithContext(ctx)
		}
		next.ServeHTTP(w, r)
	})
}

// grpcTimeout reads the gRPC protocol's grpc-timeout: at most 8 digits and a unit.
func grpcTimeout(v string) (time.Duration, bool) {
	if len(v) < 2 || len(v) > 9 {
		return 0, false
	}
	n, err := strconv.ParseInt(v[:len(v)-1], 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	unit := map[byte]time.Duration{
		'H': time.Hour, 'M': time.Minute, 'S': time.Second,
		'm': time.Millisecond, 'u': time.Microsecond, 'n': time.Nanosecond,
	}[v[len(v)-1]]
	if unit == 0 {
		return 0, false
	}
	return time.Duration(n) * unit, true
}
