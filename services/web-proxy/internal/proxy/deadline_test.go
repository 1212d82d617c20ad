package proxy

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestGrpcTimeout(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"50m", 50 * time.Millisecond, true},
		{"2S", 2 * time.Second, true},
		{"99999999n", 99999999, true},
		{"1H", time.Hour, true},
		{"", 0, false},
		{"m", 0, false},
		{"10x", 0, false},
		{"-5m", 0, false},
		{"123456789m", 0, false}, // nine digits: more than the protocol allows
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := grpcTimeout(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("grpcTimeout(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestWithDeadlineBoundsTheCall(t *testing.T) {
	var deadline time.Time
	var has bool
	handler := withDeadline(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		deadline, has = r.Context().Deadline()
	}))
	r := httptest.NewRequest(http.MethodPost, "/acme.person.v1.PersonService/GetPerson", nil)
	r.Header.Set("Grpc-Timeout", "250m")
	start := time.Now()
	handler.ServeHTTP(httptest.NewRecorder(), r)
	end := time.Now()
	if !has || deadline.Before(start.Add(250*time.Millisecond)) || deadline.After(end.Add(250*time.Millisecond)) {
		t.Fatalf("deadline %v after the start (set: %v), want 250ms", deadline.Sub(start), has)
	}
	r = httptest.NewRequest(http.MethodPost, "/acme.person.v1.PersonService/GetPerson", nil)
	handler.ServeHTTP(httptest.NewRecorder(), r)
	if has {
		t.Fatalf("a call without grpc-timeout got a deadline")
	}
}
