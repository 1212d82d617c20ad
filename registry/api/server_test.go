package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acme/contracts/gate/bufcli"
	"github.com/acme/contracts/gate/compare"
	"github.com/acme/contracts/registry/api"
	"github.com/acme/contracts/registry/schema"
	"github.com/acme/contracts/registry/service"
	"github.com/acme/contracts/registry/store"
)

const v1 = `syntax = "proto3";
package demo.v1;
import "buf/validate/validate.proto";
message Order {
  string id = 1 [(buf.validate.field).string.max_len = 64];
  int32 count = 2;
}
`

// newServer is the registry's handler over a fresh database, judging with the contracts'
// buf.yaml (buf and the gate's plugin on PATH, as scripts/tests/schema-registry.sh puts them).
func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "registry.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	config, err := filepath.Abs("../../buf.yaml")
	if err != nil {
		t.Fatal(err)
	}
	judge := schema.Judge{Comparer: compare.Comparer{Buf: bufcli.Buf{Dir: filepath.Dir(config)}, Config: config}}
	srv := httptest.NewServer((&api.Server{Registry: service.New(st, judge)}).Handler())
	t.Cleanup(srv.Close)
	return srv
}

func call(t *testing.T, srv *httptest.Server, method, path, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("%s %s: the answer is not JSON: %v", method, path, err)
	}
	if m, ok := out.(map[string]any); ok {
		return resp.StatusCode, m
	}
	return resp.StatusCode, map[string]any{"list": out}
}

func schemaBody(text string) string {
	data, _ := json.Marshal(map[string]any{"schema": text, "schemaType": "PROTOBUF"})
	return string(data)
}

func TestRegisterLookUpAndRead(t *testing.T) {
	srv := newServer(t)
	status, got := call(t, srv, "POST", "/subjects/orders-value/versions", schemaBody(v1))
	if status != 200 || got["id"] != 1.0 {
		t.Fatalf("register: %d %v", status, got)
	}
	// The same schema again, in the same subject or another: the same id.
	for _, path := range []string{"/subjects/orders-value/versions", "/subjects/other/versions"} {
		if status, got := call(t, srv, "POST", path, schemaBody(v1)); status != 200 || got["id"] != 1.0 {
			t.Errorf("register again at %s: %d %v", path, status, got)
		}
	}
	if _, got := call(t, srv, "GET", "/subjects/orders-value/versions", ""); len(got["list"].([]any)) != 1 {
		t.Errorf("versions after registering one schema twice: %v", got)
	}
	status, got = call(t, srv, "POST", "/subjects/orders-value", schemaBody(v1))
	if status != 200 || got["version"] != 1.0 || got["id"] != 1.0 {
		t.Errorf("look-up: %d %v", status, got)
	}
	status, got = call(t, srv, "GET", "/schemas/ids/1", "")
	if status != 200 || got["schemaType"] != "PROTOBUF" || got["schema"] != v1 {
		t.Errorf("schema by id: %d %v", status, got)
	}
	status, got = call(t, srv, "GET", "/subjects/orders-value/versions/latest?format=serialized", "")
	if status != 200 || strings.Contains(got["schema"].(string), "syntax") {
		t.Errorf("serialized version: %d %v", status, got)
	}
}

func TestCompatibilityUsesTheGateRules(t *testing.T) {
	if _, err := exec.LookPath("buf"); err != nil {
		t.Fatal("buf is not on PATH: run these tests with make test-schema-registry")
	}
	srv := newServer(t)
	call(t, srv, "POST", "/subjects/orders-value/versions", schemaBody(v1))
	cases := []struct {
		name, schema, rule string
	}{
		{"a compatible new field", strings.Replace(v1, "int32 count = 2;", "int32 count = 2;\n  string note = 3;", 1), ""},
		{"a field's type changed", strings.Replace(v1, "int32 count", "int64 count", 1), "FIELD_SAME_TYPE demo.v1.Order.count "},
		{"a rule tightened", strings.Replace(v1, "max_len = 64", "max_len = 32", 1), "VALIDATE_MAX_LEN_TIGHTENED demo.v1.Order.id "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, got := call(t, srv, "POST", "/compatibility/subjects/orders-value/versions/latest?verbose=true", schemaBody(c.schema))
			if status != 200 {
				t.Fatalf("%d %v", status, got)
			}
			messages := got["messages"].([]any)
			if c.rule == "" {
				if got["is_compatible"] != true || len(messages) != 0 {
					t.Errorf("want compatible: %v", got)
				}
				return
			}
			if got["is_compatible"] != false || len(messages) == 0 || !strings.HasPrefix(messages[0].(string), c.rule) {
				t.Errorf("want %q: %v", c.rule, got)
			}
			status, got = call(t, srv, "POST", "/subjects/orders-value/versions", schemaBody(c.schema))
			if status != 409 || got["error_code"] != 409.0 || !strings.Contains(got["message"].(string), c.rule) {
				t.Errorf("register: want 409 with %q: %d %v", c.rule, status, got)
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	srv := newServer(t)
	call(t, srv, "POST", "/subjects/s/versions", schemaBody(v1))
	cases := []struct {
		method, path, body string
		status, code       int
	}{
		{"GET", "/subjects/none/versions", "", 404, 40401},
		{"GET", "/subjects/none/versions/1", "", 404, 40401},
		{"GET", "/subjects/s/versions/2", "", 404, 40402},
		{"GET", "/subjects/s/versions/x", "", 422, 42202},
		{"GET", "/subjects/s/versions/-5", "", 422, 42202},
		{"GET", "/schemas/ids/2", "", 404, 40403},
		{"GET", "/schemas/ids/abc", "", 404, 40403},
		{"POST", "/subjects/s", schemaBody(`syntax = "proto3";`), 404, 40403},
		{"POST", "/subjects/none", schemaBody(v1), 404, 40401},
		{"POST", "/subjects/s/versions", schemaBody(`syntax = "proto3"; message A { int32 a = 1; int32 b = 1; }`), 422, 42201},
		{"POST", "/subjects/s/versions", schemaBody(`syntax = "proto3"; import "x.proto"; message A { X x = 1; }`), 422, 42201},
		{"POST", "/subjects/s/versions", `{"schema": "syntax = \"proto3\";", "schemaType": "PROTOBUF", "references": [{"name": "x.proto", "subject": "none", "version": 1}]}`, 422, 42201},
		{"POST", "/subjects/s/versions", `{"schema": "syntax = \"proto3\";"}`, 422, 42201},
		{"POST", "/subjects/s/versions", `{"schema": `, 422, 422},
		{"POST", "/subjects/s/versions", `{"schema": "a"} {"schema": "b"}`, 422, 422},
		{"POST", "/subjects/s/versions", `{"schema": "` + strings.Repeat("a", api.MaxBodyBytes) + `"}`, 413, 413},
		{"POST", "/subjects/%01/versions", schemaBody(v1), 422, 422},
		{"POST", "/compatibility/subjects/none/versions/latest", schemaBody(v1), 404, 40401},
		{"POST", "/compatibility/subjects/s/versions/7", schemaBody(v1), 404, 40402},
		{"PUT", "/config", `{"compatibility": "SOMETIMES"}`, 422, 42203},
		{"GET", "/config/s", "", 404, 40408},
		{"DELETE", "/subjects/s", "", 405, 0},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path[:min(len(c.path), 40)], func(t *testing.T) {
			status, got := call(t, srv, c.method, c.path, c.body)
			if status != c.status || (c.code != 0 && got["error_code"] != float64(c.code)) {
				t.Errorf("want %d/%d, got %d %v", c.status, c.code, status, got)
			}
		})
	}
	if _, got := call(t, srv, "GET", "/subjects", ""); len(got["list"].([]any)) != 1 {
		t.Errorf("bad input stored a subject: %v", got)
	}
	if _, got := call(t, srv, "GET", "/subjects/s/versions", ""); len(got["list"].([]any)) != 1 {
		t.Errorf("bad input stored a version: %v", got)
	}
}

func TestConfig(t *testing.T) {
	srv := newServer(t)
	if _, got := call(t, srv, "GET", "/config", ""); got["compatibilityLevel"] != service.DefaultLevel {
		t.Errorf("default level: %v", got)
	}
	for _, level := range []string{"BACKWARD", "BACKWARD_TRANSITIVE", "FORWARD", "FORWARD_TRANSITIVE", "FULL", "FULL_TRANSITIVE", "NONE"} {
		if status, got := call(t, srv, "PUT", "/config/s", `{"compatibility": "`+level+`"}`); status != 200 || got["compatibility"] != level {
			t.Errorf("set %s: %d %v", level, status, got)
		}
		if _, got := call(t, srv, "GET", "/config/s", ""); got["compatibilityLevel"] != level {
			t.Errorf("read %s: %v", level, got)
		}
	}
	if _, got := call(t, srv, "GET", "/config/other?defaultToGlobal=true", ""); got["compatibilityLevel"] != service.DefaultLevel {
		t.Errorf("defaultToGlobal: %v", got)
	}
}
