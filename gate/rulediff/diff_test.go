package rulediff_test

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/acme/contracts/gate/internal/schematest"
	"github.com/acme/contracts/gate/rulediff"
)

const header = `syntax = "proto3";
package t.v1;
import "buf/validate/validate.proto";
import "google/protobuf/any.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/field_mask.proto";
import "google/protobuf/timestamp.proto";
`

// The message under test is t.v1.M; these place it where clients send it, where servers send
// it, both, or where no RPC carries it.
func request(body string) string {
	return header + "service S { rpc Call(M) returns (Out); }\nmessage Out {}\nmessage M {\n" + body + "\n}\n"
}

func response(body string) string {
	return header + "service S { rpc Call(In) returns (M); }\nmessage In {}\nmessage M {\n" + body + "\n}\n"
}

func both(body string) string {
	return header + "service S { rpc Call(M) returns (M); }\nmessage M {\n" + body + "\n}\n"
}

func unreached(body string) string { return header + "message M {\n" + body + "\n}\n" }

type diffCase struct {
	name       string
	base, head string
	// want: "RULE_ID element" for every finding, in any order; none when the change is safe.
	want []string
}

func run(t *testing.T, cases []diffCase) { runWith(t, cases, nil) }

// runWith runs cases whose schemas also hold extra files, the same on both sides.
func runWith(t *testing.T, cases []diffCase, extra map[string]string) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			sources := func(main string) map[string]string {
				out := map[string]string{"t.proto": main}
				for k, v := range extra {
					out[k] = v
				}
				return out
			}
			base := schematest.Compile(t, "base", sources(c.base))
			head := schematest.Compile(t, "head", sources(c.head))
			findings, err := rulediff.Images(base, head)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range findings {
				got = append(got, f.Rule+" "+string(f.Element))
				if !strings.HasPrefix(f.Message, string(f.Element)+": ") {
					t.Errorf("message does not start with the element: %s", f.Message)
				}
			}
			for _, f := range findings {
				t.Log(f.String())
			}
			want := append([]string{}, c.want...)
			sort.Strings(got)
			sort.Strings(want)
			if !slices.Equal(got, want) {
				var messages []string
				for _, f := range findings {
					messages = append(messages, "  "+f.String())
				}
				t.Errorf("findings\n got: %q\nwant: %q\n%s", got, want, strings.Join(messages, "\n"))
			}
		})
	}
}

func TestStringRules(t *testing.T) {
	run(t, []diffCase{
		{"max_len tightened on a request", request(`string f = 1 [(buf.validate.field).string.max_len = 200];`),
			request(`string f = 1 [(buf.validate.field).string.max_len = 100];`), []string{"VALIDATE_MAX_LEN_TIGHTENED t.v1.M.f"}},
		{"max_len loosened on a request is safe", request(`string f = 1 [(buf.validate.field).string.max_len = 100];`),
			request(`string f = 1 [(buf.validate.field).string.max_len = 200];`), nil},
		{"max_len loosened on a response", response(`string f = 1 [(buf.validate.field).string.max_len = 100];`),
			response(`string f = 1 [(buf.validate.field).string.max_len = 200];`), []string{"VALIDATE_MAX_LEN_LOOSENED t.v1.M.f"}},
		{"max_len tightened on a response is safe", response(`string f = 1 [(buf.validate.field).string.max_len = 200];`),
			response(`string f = 1 [(buf.validate.field).string.max_len = 100];`), nil},
		{"max_len tightened on a message sent both ways", both(`string f = 1 [(buf.validate.field).string.max_len = 200];`),
			both(`string f = 1 [(buf.validate.field).string.max_len = 100];`), []string{"VALIDATE_MAX_LEN_TIGHTENED t.v1.M.f"}},
		{"max_len loosened on a message sent both ways", both(`string f = 1 [(buf.validate.field).string.max_len = 100];`),
			both(`string f = 1 [(buf.validate.field).string.max_len = 200];`), []string{"VALIDATE_MAX_LEN_LOOSENED t.v1.M.f"}},
		{"min_len added to an existing field of a request", request(`string f = 1;`),
			request(`string f = 1 [(buf.validate.field).string.min_len = 1];`), []string{"VALIDATE_MIN_LEN_TIGHTENED t.v1.M.f"}},
		{"max_len added to an existing field of a request", request(`string f = 1;`),
			request(`string f = 1 [(buf.validate.field).string.max_len = 10];`), []string{"VALIDATE_MAX_LEN_TIGHTENED t.v1.M.f"}},
		{"min_len and max_len narrowed together", request(`string f = 1 [(buf.validate.field).string = {min_len: 1, max_len: 200}];`),
			request(`string f = 1 [(buf.validate.field).string = {min_len: 2, max_len: 100}];`), []string{"VALIDATE_LEN_TIGHTENED t.v1.M.f"}},
		{"min_len raised and max_len raised cannot be ordered", request(`string f = 1 [(buf.validate.field).string = {min_len: 1, max_len: 100}];`),
			request(`string f = 1 [(buf.validate.field).string = {min_len: 2, max_len: 200}];`), []string{"VALIDATE_LEN_CHANGED t.v1.M.f"}},
		{"len replacing the same min_len and max_len is no change", request(`string f = 1 [(buf.validate.field).string = {min_len: 3, max_len: 3}];`),
			request(`string f = 1 [(buf.validate.field).string.len = 3];`), nil},
		{"max_bytes tightened", request(`string f = 1 [(buf.validate.field).string.max_bytes = 64];`),
			request(`string f = 1 [(buf.validate.field).string.max_bytes = 32];`), []string{"VALIDATE_MAX_BYTES_TIGHTENED t.v1.M.f"}},
		{"pattern changed breaks even a request", request(`string f = 1 [(buf.validate.field).string.pattern = "^[a-z]+$"];`),
			request(`string f = 1 [(buf.validate.field).string.pattern = "^[a-z0-9]+$"];`), []string{"VALIDATE_PATTERN_CHANGED t.v1.M.f"}},
		{"pattern removed from a request is safe", request(`string f = 1 [(buf.validate.field).string.pattern = "^[a-z]+$"];`),
			request(`string f = 1;`), nil},
		{"longer prefix is tighter", request(`string f = 1 [(buf.validate.field).string.prefix = "ab"];`),
			request(`string f = 1 [(buf.validate.field).string.prefix = "abc"];`), []string{"VALIDATE_PREFIX_TIGHTENED t.v1.M.f"}},
		{"shorter prefix is looser", response(`string f = 1 [(buf.validate.field).string.prefix = "abc"];`),
			response(`string f = 1 [(buf.validate.field).string.prefix = "ab"];`), []string{"VALIDATE_PREFIX_LOOSENED t.v1.M.f"}},
		{"another prefix cannot be ordered", response(`string f = 1 [(buf.validate.field).string.prefix = "ab"];`),
			response(`string f = 1 [(buf.validate.field).string.prefix = "xy"];`), []string{"VALIDATE_PREFIX_CHANGED t.v1.M.f"}},
		{"longer suffix is tighter", request(`string f = 1 [(buf.validate.field).string.suffix = ".com"];`),
			request(`string f = 1 [(buf.validate.field).string.suffix = "acme.com"];`), []string{"VALIDATE_SUFFIX_TIGHTENED t.v1.M.f"}},
		{"contains a longer text is tighter", request(`string f = 1 [(buf.validate.field).string.contains = "a"];`),
			request(`string f = 1 [(buf.validate.field).string.contains = "ab"];`), []string{"VALIDATE_CONTAINS_TIGHTENED t.v1.M.f"}},
		{"not_contains a shorter text is tighter", request(`string f = 1 [(buf.validate.field).string.not_contains = "ab"];`),
			request(`string f = 1 [(buf.validate.field).string.not_contains = "a"];`), []string{"VALIDATE_NOT_CONTAINS_TIGHTENED t.v1.M.f"}},
		{"in with fewer values is tighter", request(`string f = 1 [(buf.validate.field).string = {in: ["a", "b"]}];`),
			request(`string f = 1 [(buf.validate.field).string = {in: ["a"]}];`), []string{"VALIDATE_IN_TIGHTENED t.v1.M.f"}},
		{"in with more values on a request is safe", request(`string f = 1 [(buf.validate.field).string = {in: ["a"]}];`),
			request(`string f = 1 [(buf.validate.field).string = {in: ["a", "b"]}];`), nil},
		{"in swapped for another set cannot be ordered", response(`string f = 1 [(buf.validate.field).string = {in: ["a"]}];`),
			response(`string f = 1 [(buf.validate.field).string = {in: ["b"]}];`), []string{"VALIDATE_IN_CHANGED t.v1.M.f"}},
		{"not_in with more values is tighter", request(`string f = 1 [(buf.validate.field).string = {not_in: ["a"]}];`),
			request(`string f = 1 [(buf.validate.field).string = {not_in: ["a", "b"]}];`), []string{"VALIDATE_NOT_IN_TIGHTENED t.v1.M.f"}},
		{"const replaced by an in that holds it is looser", response(`string f = 1 [(buf.validate.field).string.const = "a"];`),
			response(`string f = 1 [(buf.validate.field).string = {in: ["a", "b"]}];`), []string{"VALIDATE_IN_LOOSENED t.v1.M.f"}},
		{"email added", request(`string f = 1;`),
			request(`string f = 1 [(buf.validate.field).string.email = true];`), []string{"VALIDATE_EMAIL_TIGHTENED t.v1.M.f"}},
		{"email dropped from a response", response(`string f = 1 [(buf.validate.field).string.email = true];`),
			response(`string f = 1;`), []string{"VALIDATE_EMAIL_LOOSENED t.v1.M.f"}},
		{"email replaced by hostname on a request", request(`string f = 1 [(buf.validate.field).string.email = true];`),
			request(`string f = 1 [(buf.validate.field).string.hostname = true];`), []string{"VALIDATE_HOSTNAME_TIGHTENED t.v1.M.f"}},
		{"well_known_regex changed", both(`string f = 1 [(buf.validate.field).string.well_known_regex = KNOWN_REGEX_HTTP_HEADER_NAME];`),
			both(`string f = 1 [(buf.validate.field).string.well_known_regex = KNOWN_REGEX_HTTP_HEADER_VALUE];`), []string{"VALIDATE_WELL_KNOWN_REGEX_CHANGED t.v1.M.f"}},
		{"strict turned off beside a well-known regex", response(`string f = 1 [(buf.validate.field).string.well_known_regex = KNOWN_REGEX_HTTP_HEADER_NAME];`),
			response(`string f = 1 [(buf.validate.field).string = {well_known_regex: KNOWN_REGEX_HTTP_HEADER_NAME, strict: false}];`), []string{"VALIDATE_STRICT_LOOSENED t.v1.M.f"}},
		{"an unchanged rule is no finding", both(`string f = 1 [(buf.validate.field).string = {min_len: 1, max_len: 5, pattern: "^a"}];`),
			both(`string f = 1 [(buf.validate.field).string = {min_len: 1, max_len: 5, pattern: "^a"}];`), nil},
	})
}

func TestNumericRules(t *testing.T) {
	run(t, []diffCase{
		{"int32 lte lowered", request(`int32 f = 1 [(buf.validate.field).int32 = {gte: 0, lte: 10000}];`),
			request(`int32 f = 1 [(buf.validate.field).int32 = {gte: 0, lte: 1000}];`), []string{"VALIDATE_LTE_TIGHTENED t.v1.M.f"}},
		{"int32 range widened on a request is safe", request(`int32 f = 1 [(buf.validate.field).int32 = {gte: 0, lte: 1000}];`),
			request(`int32 f = 1 [(buf.validate.field).int32 = {gte: 0, lte: 10000}];`), nil},
		{"gt 0 is gte 1", both(`int32 f = 1 [(buf.validate.field).int32.gt = 0];`),
			both(`int32 f = 1 [(buf.validate.field).int32.gte = 1];`), nil},
		{"gt 0 to gte 0 on a response", response(`int32 f = 1 [(buf.validate.field).int32.gt = 0];`),
			response(`int32 f = 1 [(buf.validate.field).int32.gte = 0];`), []string{"VALIDATE_RANGE_LOOSENED t.v1.M.f"}},
		{"int32 to int64 with the same bounds", both(`int32 f = 1 [(buf.validate.field).int32 = {gte: 0, lte: 100}];`),
			both(`int64 f = 1 [(buf.validate.field).int64 = {gte: 0, lte: 100}];`), nil},
		{"int32 to int64 without bounds", both(`int32 f = 1;`), both(`int64 f = 1;`), nil},
		{"int32 to sint64 with a raised minimum", request(`int32 f = 1 [(buf.validate.field).int32.gte = 0];`),
			request(`sint64 f = 1 [(buf.validate.field).sint64.gte = 1];`), []string{"VALIDATE_GTE_TIGHTENED t.v1.M.f"}},
		{"sfixed32 to int64 with the same bounds", both(`sfixed32 f = 1 [(buf.validate.field).sfixed32.lt = 7];`),
			both(`int64 f = 1 [(buf.validate.field).int64.lt = 7];`), nil},
		{"uint32 to uint64 with the same bounds", both(`uint32 f = 1 [(buf.validate.field).uint32 = {gt: 1, lte: 9}];`),
			both(`uint64 f = 1 [(buf.validate.field).uint64 = {gt: 1, lte: 9}];`), nil},
		{"a bound the type implies is no rule", both(`uint32 f = 1;`), both(`uint32 f = 1 [(buf.validate.field).uint32.gte = 0];`), nil},
		{"int32 lte at its maximum is no rule", both(`int32 f = 1;`), both(`int32 f = 1 [(buf.validate.field).int32.lte = 2147483647];`), nil},
		{"uint64 bound one below 2^64 is exact", request(`uint64 f = 1 [(buf.validate.field).uint64.lte = 18446744073709551615];`),
			request(`uint64 f = 1 [(buf.validate.field).uint64.lte = 18446744073709551614];`), []string{"VALIDATE_LTE_TIGHTENED t.v1.M.f"}},
		{"int64 bound above 2^53 is exact", request(`int64 f = 1 [(buf.validate.field).int64.lte = 9007199254740993];`),
			request(`int64 f = 1 [(buf.validate.field).int64.lte = 9007199254740992];`), []string{"VALIDATE_LTE_TIGHTENED t.v1.M.f"}},
		{"int64 minimum is exact", response(`int64 f = 1 [(buf.validate.field).int64.gte = -9223372036854775807];`),
			response(`int64 f = 1 [(buf.validate.field).int64.gte = -9223372036854775808];`), []string{"VALIDATE_GTE_LOOSENED t.v1.M.f"}},
		{"bounds moved both ways cannot be ordered", both(`int32 f = 1 [(buf.validate.field).int32 = {gte: 0, lte: 10}];`),
			both(`int32 f = 1 [(buf.validate.field).int32 = {gte: 5, lte: 20}];`), []string{"VALIDATE_RANGE_CHANGED t.v1.M.f"}},
		{"an exclusive range (gt above lt) is not empty", request(`int32 f = 1 [(buf.validate.field).int32 = {gt: 10, lt: 5}];`),
			request(`int32 f = 1 [(buf.validate.field).int32 = {gt: 10, lt: 4}];`), []string{"VALIDATE_LT_TIGHTENED t.v1.M.f"}},
		{"an exclusive range turned normal", request(`int32 f = 1 [(buf.validate.field).int32 = {gte: 10, lte: 5}];`),
			request(`int32 f = 1 [(buf.validate.field).int32 = {gte: 5, lte: 10}];`), []string{"VALIDATE_RANGE_CHANGED t.v1.M.f"}},
		{"int in with fewer values", request(`int32 f = 1 [(buf.validate.field).int32 = {in: [1, 2, 3]}];`),
			request(`int32 f = 1 [(buf.validate.field).int32 = {in: [1, 2]}];`), []string{"VALIDATE_IN_TIGHTENED t.v1.M.f"}},
		{"int not_in with more values", request(`int64 f = 1 [(buf.validate.field).int64 = {not_in: [0]}];`),
			request(`int64 f = 1 [(buf.validate.field).int64 = {not_in: [0, 1]}];`), []string{"VALIDATE_NOT_IN_TIGHTENED t.v1.M.f"}},
		{"not_in of a value the bounds refuse anyway is no change", request(`int32 f = 1 [(buf.validate.field).int32 = {gt: 0}];`),
			request(`int32 f = 1 [(buf.validate.field).int32 = {gt: 0, not_in: [0]}];`), nil},
		{"int const added", request(`uint32 f = 1;`), request(`uint32 f = 1 [(buf.validate.field).uint32.const = 7];`), []string{"VALIDATE_CONST_TIGHTENED t.v1.M.f"}},
		{"double gt to gte on a response", response(`double f = 1 [(buf.validate.field).double.gt = 0.5];`),
			response(`double f = 1 [(buf.validate.field).double.gte = 0.5];`), []string{"VALIDATE_RANGE_LOOSENED t.v1.M.f"}},
		{"double finite added", request(`double f = 1;`), request(`double f = 1 [(buf.validate.field).double.finite = true];`), []string{"VALIDATE_FINITE_TIGHTENED t.v1.M.f"}},
		{"finite beside bounds that refuse infinities anyway", request(`double f = 1 [(buf.validate.field).double = {gte: 0, lte: 1}];`),
			request(`double f = 1 [(buf.validate.field).double = {gte: 0, lte: 1, finite: true}];`), nil},
		{"float to double with the same bounds", both(`float f = 1 [(buf.validate.field).float = {gte: 0.5, lt: 10}];`),
			both(`double f = 1 [(buf.validate.field).double = {gte: 0.5, lt: 10}];`), nil},
		{"double lt lowered", request(`double f = 1 [(buf.validate.field).double.lt = 10.5];`),
			request(`double f = 1 [(buf.validate.field).double.lt = 10.25];`), []string{"VALIDATE_LT_TIGHTENED t.v1.M.f"}},
		{"int rules replaced by uint rules cannot be compared", both(`int32 f = 1 [(buf.validate.field).int32.gte = 0];`),
			both(`uint32 f = 1 [(buf.validate.field).uint32.gte = 0];`), []string{"VALIDATE_RULE_TYPE_CHANGED t.v1.M.f"}},
		{"int rules removed from a request", request(`int32 f = 1 [(buf.validate.field).int32.gte = 0];`), request(`int32 f = 1;`), nil},
		{"int rules removed from a response", response(`int32 f = 1 [(buf.validate.field).int32.gte = 0];`), response(`int32 f = 1;`),
			[]string{"VALIDATE_GTE_LOOSENED t.v1.M.f"}},
	})
}

func TestBytesBoolAndWellKnownTypes(t *testing.T) {
	run(t, []diffCase{
		{"bytes max_len tightened", request(`bytes f = 1 [(buf.validate.field).bytes.max_len = 16];`),
			request(`bytes f = 1 [(buf.validate.field).bytes.max_len = 8];`), []string{"VALIDATE_MAX_LEN_TIGHTENED t.v1.M.f"}},
		{"bytes prefix longer", request(`bytes f = 1 [(buf.validate.field).bytes.prefix = "\x01"];`),
			request(`bytes f = 1 [(buf.validate.field).bytes.prefix = "\x01\x02"];`), []string{"VALIDATE_PREFIX_TIGHTENED t.v1.M.f"}},
		{"bytes in with fewer values", request(`bytes f = 1 [(buf.validate.field).bytes = {in: ["a", "b"]}];`),
			request(`bytes f = 1 [(buf.validate.field).bytes = {in: ["a"]}];`), []string{"VALIDATE_IN_TIGHTENED t.v1.M.f"}},
		{"bytes ipv4 dropped from a response", response(`bytes f = 1 [(buf.validate.field).bytes.ipv4 = true];`),
			response(`bytes f = 1;`), []string{"VALIDATE_IPV4_LOOSENED t.v1.M.f"}},
		{"bool const added", request(`bool f = 1;`), request(`bool f = 1 [(buf.validate.field).bool.const = true];`), []string{"VALIDATE_CONST_TIGHTENED t.v1.M.f"}},
		{"bool const flipped", request(`bool f = 1 [(buf.validate.field).bool.const = true];`),
			request(`bool f = 1 [(buf.validate.field).bool.const = false];`), []string{"VALIDATE_CONST_CHANGED t.v1.M.f"}},
		{"duration lt lowered", request(`google.protobuf.Duration f = 1 [(buf.validate.field).duration.lt = {seconds: 10}];`),
			request(`google.protobuf.Duration f = 1 [(buf.validate.field).duration.lt = {seconds: 5}];`), []string{"VALIDATE_LT_TIGHTENED t.v1.M.f"}},
		{"duration gte by nanoseconds", response(`google.protobuf.Duration f = 1 [(buf.validate.field).duration.gte = {nanos: 2}];`),
			response(`google.protobuf.Duration f = 1 [(buf.validate.field).duration.gte = {nanos: 1}];`), []string{"VALIDATE_GTE_LOOSENED t.v1.M.f"}},
		{"timestamp gt_now added", request(`google.protobuf.Timestamp f = 1;`),
			request(`google.protobuf.Timestamp f = 1 [(buf.validate.field).timestamp.gt_now = true];`), []string{"VALIDATE_GT_NOW_TIGHTENED t.v1.M.f"}},
		{"timestamp within narrowed", request(`google.protobuf.Timestamp f = 1 [(buf.validate.field).timestamp.within = {seconds: 3600}];`),
			request(`google.protobuf.Timestamp f = 1 [(buf.validate.field).timestamp.within = {seconds: 60}];`), []string{"VALIDATE_WITHIN_TIGHTENED t.v1.M.f"}},
		{"timestamp within widened on a response", response(`google.protobuf.Timestamp f = 1 [(buf.validate.field).timestamp.within = {seconds: 60}];`),
			response(`google.protobuf.Timestamp f = 1 [(buf.validate.field).timestamp.within = {seconds: 3600}];`), []string{"VALIDATE_WITHIN_LOOSENED t.v1.M.f"}},
		{"timestamp gte raised", request(`google.protobuf.Timestamp f = 1 [(buf.validate.field).timestamp.gte = {seconds: 100}];`),
			request(`google.protobuf.Timestamp f = 1 [(buf.validate.field).timestamp.gte = {seconds: 200}];`), []string{"VALIDATE_GTE_TIGHTENED t.v1.M.f"}},
		{"any in with fewer types", request(`google.protobuf.Any f = 1 [(buf.validate.field).any = {in: ["type.googleapis.com/a.A", "type.googleapis.com/b.B"]}];`),
			request(`google.protobuf.Any f = 1 [(buf.validate.field).any = {in: ["type.googleapis.com/a.A"]}];`), []string{"VALIDATE_IN_TIGHTENED t.v1.M.f"}},
		{"field_mask not_in grown", request(`google.protobuf.FieldMask f = 1 [(buf.validate.field).field_mask = {not_in: ["a"]}];`),
			request(`google.protobuf.FieldMask f = 1 [(buf.validate.field).field_mask = {not_in: ["a", "b"]}];`), []string{"VALIDATE_NOT_IN_TIGHTENED t.v1.M.f"}},
		{"string rules moved to bytes rules", both(`string f = 1 [(buf.validate.field).string.max_len = 5];`),
			both(`bytes f = 1 [(buf.validate.field).bytes.max_len = 5];`), []string{"VALIDATE_RULE_TYPE_CHANGED t.v1.M.f"}},
		{"rules added with a type change", request(`int32 f = 1;`),
			request(`string f = 1 [(buf.validate.field).string.min_len = 1];`), []string{"VALIDATE_MIN_LEN_TIGHTENED t.v1.M.f"}},
	})
}

func TestEnumRules(t *testing.T) {
	const enum = "enum E { E_UNSPECIFIED = 0; E_A = 1; E_B = 2; }\n"
	const enumGrown = "enum E { E_UNSPECIFIED = 0; E_A = 1; E_B = 2; E_C = 3; }\n"
	const enumShrunk = "enum E { E_UNSPECIFIED = 0; E_A = 1; reserved 2; }\n"
	run(t, []diffCase{
		{"defined_only added on a request", request(`E f = 1;`) + enum, request(`E f = 1 [(buf.validate.field).enum.defined_only = true];`) + enum,
			[]string{"VALIDATE_DEFINED_ONLY_TIGHTENED t.v1.M.f"}},
		{"defined_only dropped from a request is safe", request(`E f = 1 [(buf.validate.field).enum.defined_only = true];`) + enum,
			request(`E f = 1;`) + enum, nil},
		{"defined_only dropped from a response", response(`E f = 1 [(buf.validate.field).enum.defined_only = true];`) + enum,
			response(`E f = 1;`) + enum, []string{"VALIDATE_DEFINED_ONLY_LOOSENED t.v1.M.f"}},
		{"an enum value added under defined_only on a response", response(`E f = 1 [(buf.validate.field).enum.defined_only = true];`) + enum,
			response(`E f = 1 [(buf.validate.field).enum.defined_only = true];`) + enumGrown, []string{"VALIDATE_DEFINED_ONLY_LOOSENED t.v1.M.f"}},
		{"an enum value added under defined_only on a request is safe", request(`E f = 1 [(buf.validate.field).enum.defined_only = true];`) + enum,
			request(`E f = 1 [(buf.validate.field).enum.defined_only = true];`) + enumGrown, nil},
		{"an enum value removed under defined_only on a request", request(`E f = 1 [(buf.validate.field).enum.defined_only = true];`) + enum,
			request(`E f = 1 [(buf.validate.field).enum.defined_only = true];`) + enumShrunk, []string{"VALIDATE_DEFINED_ONLY_TIGHTENED t.v1.M.f"}},
		{"enum not_in grown", request(`E f = 1 [(buf.validate.field).enum = {not_in: [0]}];`) + enum,
			request(`E f = 1 [(buf.validate.field).enum = {not_in: [0, 2]}];`) + enum, []string{"VALIDATE_NOT_IN_TIGHTENED t.v1.M.f"}},
		{"enum in shrunk", request(`E f = 1 [(buf.validate.field).enum = {in: [1, 2]}];`) + enum,
			request(`E f = 1 [(buf.validate.field).enum = {in: [1]}];`) + enum, []string{"VALIDATE_IN_TIGHTENED t.v1.M.f"}},
		{"enum in added that defined_only already implies", request(`E f = 1 [(buf.validate.field).enum.defined_only = true];`) + enum,
			request(`E f = 1 [(buf.validate.field).enum = {defined_only: true, in: [0, 1, 2]}];`) + enum, nil},
	})
}

func TestRepeatedAndMapRules(t *testing.T) {
	run(t, []diffCase{
		{"min_items raised", request(`repeated string f = 1 [(buf.validate.field).repeated.min_items = 1];`),
			request(`repeated string f = 1 [(buf.validate.field).repeated.min_items = 2];`), []string{"VALIDATE_MIN_ITEMS_TIGHTENED t.v1.M.f"}},
		{"max_items lowered on a response is safe", response(`repeated string f = 1 [(buf.validate.field).repeated.max_items = 8];`),
			response(`repeated string f = 1 [(buf.validate.field).repeated.max_items = 4];`), nil},
		{"min_items and max_items both moved", both(`repeated string f = 1 [(buf.validate.field).repeated = {min_items: 1, max_items: 8}];`),
			both(`repeated string f = 1 [(buf.validate.field).repeated = {min_items: 0, max_items: 4}];`), []string{"VALIDATE_ITEMS_CHANGED t.v1.M.f"}},
		{"unique added", request(`repeated string f = 1;`), request(`repeated string f = 1 [(buf.validate.field).repeated.unique = true];`),
			[]string{"VALIDATE_UNIQUE_TIGHTENED t.v1.M.f"}},
		{"items max_len tightened", request(`repeated string f = 1 [(buf.validate.field).repeated.items.string.max_len = 10];`),
			request(`repeated string f = 1 [(buf.validate.field).repeated.items.string.max_len = 5];`), []string{"VALIDATE_MAX_LEN_TIGHTENED t.v1.M.f"}},
		{"items int32 to int64 with the same bounds", both(`repeated int32 f = 1 [(buf.validate.field).repeated.items.int32.gt = 0];`),
			both(`repeated int64 f = 1 [(buf.validate.field).repeated.items.int64.gt = 0];`), nil},
		{"min_pairs raised", request(`map<string, string> f = 1 [(buf.validate.field).map.min_pairs = 1];`),
			request(`map<string, string> f = 1 [(buf.validate.field).map.min_pairs = 2];`), []string{"VALIDATE_MIN_PAIRS_TIGHTENED t.v1.M.f"}},
		{"map keys min_len raised", request(`map<string, string> f = 1 [(buf.validate.field).map.keys.string.min_len = 1];`),
			request(`map<string, string> f = 1 [(buf.validate.field).map.keys.string.min_len = 3];`), []string{"VALIDATE_MIN_LEN_TIGHTENED t.v1.M.f"}},
		{"map values gt removed on a response", response(`map<string, int64> f = 1 [(buf.validate.field).map.values.int64.gt = 0];`),
			response(`map<string, int64> f = 1;`), []string{"VALIDATE_GT_LOOSENED t.v1.M.f"}},
		{"a message reached through a map's values is sent by clients",
			request(`map<string, Inner> f = 1;`) + "message Inner { string n = 1 [(buf.validate.field).string.max_len = 9]; }\n",
			request(`map<string, Inner> f = 1;`) + "message Inner { string n = 1 [(buf.validate.field).string.max_len = 3]; }\n",
			[]string{"VALIDATE_MAX_LEN_TIGHTENED t.v1.Inner.n"}},
	})
}

func TestRequiredIgnoreAndCEL(t *testing.T) {
	run(t, []diffCase{
		{"required added to a message field", request(`Inner f = 1;`) + "message Inner {}\n",
			request(`Inner f = 1 [(buf.validate.field).required = true];`) + "message Inner {}\n", []string{"VALIDATE_REQUIRED_TIGHTENED t.v1.M.f"}},
		{"required removed from a request is safe", request(`string f = 1 [(buf.validate.field).required = true];`), request(`string f = 1;`), nil},
		{"required removed from a response", response(`string f = 1 [(buf.validate.field).required = true];`), response(`string f = 1;`),
			[]string{"VALIDATE_REQUIRED_LOOSENED t.v1.M.f"}},
		{"ignore if zero removed under a min_len", request(`string f = 1 [(buf.validate.field) = {ignore: IGNORE_IF_ZERO_VALUE, string: {min_len: 3}}];`),
			request(`string f = 1 [(buf.validate.field).string.min_len = 3];`), []string{"VALIDATE_IGNORE_TIGHTENED t.v1.M.f"}},
		{"ignore always added on a response", response(`string f = 1 [(buf.validate.field).string.min_len = 3];`),
			response(`string f = 1 [(buf.validate.field) = {ignore: IGNORE_ALWAYS, string: {min_len: 3}}];`), []string{"VALIDATE_IGNORE_LOOSENED t.v1.M.f"}},
		{"rules under ignore always on both sides change nothing", both(`string f = 1 [(buf.validate.field) = {ignore: IGNORE_ALWAYS, string: {min_len: 3}}];`),
			both(`string f = 1 [(buf.validate.field) = {ignore: IGNORE_ALWAYS, string: {min_len: 9}}];`), nil},
		{"ignore alone changes nothing", both(`string f = 1 [(buf.validate.field).ignore = IGNORE_IF_ZERO_VALUE];`), both(`string f = 1;`), nil},
		{"a field CEL rule added", request(`int32 f = 1;`),
			request(`int32 f = 1 [(buf.validate.field).cel = {id: "even", message: "even", expression: "this % 2 == 0"}];`), []string{"VALIDATE_CEL_TIGHTENED t.v1.M.f"}},
		{"a field CEL expression edited", request(`int32 f = 1 [(buf.validate.field).cel = {id: "small", message: "small", expression: "this < 10"}];`),
			request(`int32 f = 1 [(buf.validate.field).cel = {id: "small", message: "small", expression: "this < 20"}];`), []string{"VALIDATE_CEL_CHANGED t.v1.M.f"}},
		{"a CEL rule's message edited is no change", both(`int32 f = 1 [(buf.validate.field).cel = {id: "small", message: "small", expression: "this < 10"}];`),
			both(`int32 f = 1 [(buf.validate.field).cel = {id: "small", message: "must be small", expression: "this < 10"}];`), nil},
		{"a cel_expression added", request(`int32 f = 1;`), request(`int32 f = 1 [(buf.validate.field).cel_expression = "this > 0"];`),
			[]string{"VALIDATE_CEL_TIGHTENED t.v1.M.f"}},
		{"a message CEL rule added to a request", request(`int32 a = 1; int32 b = 2;`),
			request(`option (buf.validate.message).cel = {id: "ordered", message: "a <= b", expression: "this.a <= this.b"}; int32 a = 1; int32 b = 2;`),
			[]string{"VALIDATE_CEL_TIGHTENED t.v1.M"}},
		{"a message CEL rule removed from a request is safe",
			request(`option (buf.validate.message).cel = {id: "ordered", message: "a <= b", expression: "this.a <= this.b"}; int32 a = 1; int32 b = 2;`),
			request(`int32 a = 1; int32 b = 2;`), nil},
		{"a message CEL rule removed from a response",
			response(`option (buf.validate.message).cel = {id: "ordered", message: "a <= b", expression: "this.a <= this.b"}; int32 a = 1; int32 b = 2;`),
			response(`int32 a = 1; int32 b = 2;`), []string{"VALIDATE_CEL_LOOSENED t.v1.M"}},
		{"a message CEL expression edited on a response",
			response(`option (buf.validate.message).cel = {id: "ordered", message: "a <= b", expression: "this.a <= this.b"}; int32 a = 1; int32 b = 2;`),
			response(`option (buf.validate.message).cel = {id: "ordered", message: "a < b", expression: "this.a < this.b"}; int32 a = 1; int32 b = 2;`),
			[]string{"VALIDATE_CEL_CHANGED t.v1.M"}},
		{"a message cel_expression added to a response is safe", response(`int32 a = 1;`),
			response(`option (buf.validate.message).cel_expression = "this.a > 0"; int32 a = 1;`), nil},
	})
}

func TestNewFields(t *testing.T) {
	run(t, []diffCase{
		{"a new required field on a request", request(`string a = 1;`),
			request(`string a = 1; string source = 2 [(buf.validate.field).required = true];`), []string{"VALIDATE_REQUIRED_TIGHTENED t.v1.M.source"}},
		{"a new field with min_len 1 on a request", request(`string a = 1;`),
			request(`string a = 1; string source = 2 [(buf.validate.field).string.min_len = 1];`), []string{"VALIDATE_MIN_LEN_TIGHTENED t.v1.M.source"}},
		{"a new field with max_len on a request is safe", request(`string a = 1;`),
			request(`string a = 1; string source = 2 [(buf.validate.field).string.max_len = 10];`), nil},
		{"a new field with gt 0 on a request", request(`string a = 1;`),
			request(`string a = 1; int32 count = 2 [(buf.validate.field).int32.gt = 0];`), []string{"VALIDATE_GT_TIGHTENED t.v1.M.count"}},
		{"a new field with lte on a request is safe", request(`string a = 1;`),
			request(`string a = 1; int32 count = 2 [(buf.validate.field).int32.lte = 10];`), nil},
		{"a new field with const on a request", request(`string a = 1;`),
			request(`string a = 1; int32 version = 2 [(buf.validate.field).int32.const = 2];`), []string{"VALIDATE_CONST_TIGHTENED t.v1.M.version"}},
		{"a new repeated field with min_items 1", request(`string a = 1;`),
			request(`string a = 1; repeated string tags = 2 [(buf.validate.field).repeated.min_items = 1];`), []string{"VALIDATE_MIN_ITEMS_TIGHTENED t.v1.M.tags"}},
		{"a new map with min_pairs 1", request(`string a = 1;`),
			request(`string a = 1; map<string, string> labels = 2 [(buf.validate.field).map.min_pairs = 1];`), []string{"VALIDATE_MIN_PAIRS_TIGHTENED t.v1.M.labels"}},
		{"a new field under ignore if zero is safe", request(`string a = 1;`),
			request(`string a = 1; string source = 2 [(buf.validate.field) = {ignore: IGNORE_IF_ZERO_VALUE, string: {min_len: 1, uuid: true}}];`), nil},
		{"a new optional field is unset, its rules skipped", request(`string a = 1;`),
			request(`string a = 1; optional string source = 2 [(buf.validate.field).string.min_len = 1];`), nil},
		{"a new message field whose message has rules is unset", request(`string a = 1;`) + "message Inner { string n = 1 [(buf.validate.field).string.min_len = 1]; }\n",
			request(`string a = 1; Inner inner = 2;`) + "message Inner { string n = 1 [(buf.validate.field).string.min_len = 1]; }\n", nil},
		{"a new uuid field", request(`string a = 1;`),
			request(`string a = 1; string id = 2 [(buf.validate.field).string.uuid = true];`), []string{"VALIDATE_UUID_TIGHTENED t.v1.M.id"}},
		{"a new field with a CEL rule its zero value fails", request(`string a = 1;`),
			request(`string a = 1; int32 n = 2 [(buf.validate.field).cel = {id: "positive", message: "positive", expression: "this > 0"}];`),
			[]string{"VALIDATE_CEL_TIGHTENED t.v1.M.n"}},
		{"a new field with a CEL rule its zero value passes", request(`string a = 1;`),
			request(`string a = 1; int32 n = 2 [(buf.validate.field).cel = {id: "small", message: "small", expression: "this < 10"}];`), nil},
		{"a new enum field whose zero value is refused", request(`string a = 1;`) + "enum E { E_UNSPECIFIED = 0; E_A = 1; }\n",
			request(`string a = 1; E e = 2 [(buf.validate.field).enum.not_in = 0];`) + "enum E { E_UNSPECIFIED = 0; E_A = 1; }\n",
			[]string{"VALIDATE_NOT_IN_TIGHTENED t.v1.M.e"}},
		{"a new enum field with defined_only is safe", request(`string a = 1;`) + "enum E { E_UNSPECIFIED = 0; E_A = 1; }\n",
			request(`string a = 1; E e = 2 [(buf.validate.field).enum.defined_only = true];`) + "enum E { E_UNSPECIFIED = 0; E_A = 1; }\n", nil},
		{"a new required field on a response is safe", response(`string a = 1;`),
			response(`string a = 1; string source = 2 [(buf.validate.field).required = true];`), nil},
		{"a new required field on a message no RPC carries", unreached(`string a = 1;`),
			unreached(`string a = 1; string source = 2 [(buf.validate.field).string.min_len = 1];`), []string{"VALIDATE_MIN_LEN_TIGHTENED t.v1.M.source"}},
		{"a new field in a oneof is unset", request(`oneof o { string a = 1; }`),
			request(`oneof o { string a = 1; string b = 2 [(buf.validate.field).string.min_len = 1]; }`), nil},
		{"a new field of a message nested in a request", request(`Inner i = 1;`) + "message Inner { string a = 1; }\n",
			request(`Inner i = 1;`) + "message Inner { string a = 1; string b = 2 [(buf.validate.field).required = true]; }\n",
			[]string{"VALIDATE_REQUIRED_TIGHTENED t.v1.Inner.b"}},
		{"a field deleted from a response with a rule that refused its absence", response(`string a = 1; string b = 2 [(buf.validate.field).string.min_len = 1];`),
			response(`string a = 1;`), []string{"VALIDATE_MIN_LEN_LOOSENED t.v1.M"}},
		{"a field deleted from a response with a rule its absence passed", response(`string a = 1; string b = 2 [(buf.validate.field).string.max_len = 5];`),
			response(`string a = 1;`), nil},
		{"a field deleted from a request", request(`string a = 1; string b = 2 [(buf.validate.field).required = true];`),
			request(`string a = 1;`), nil},
	})
}

func TestOneofRules(t *testing.T) {
	run(t, []diffCase{
		{"a new required oneof on a request", request(`string a = 1;`),
			request(`string a = 1; oneof kind { option (buf.validate.oneof).required = true; string x = 2; string y = 3; }`),
			[]string{"VALIDATE_ONEOF_REQUIRED_TIGHTENED t.v1.M.kind"}},
		{"a new oneof that is not required is safe", request(`string a = 1;`),
			request(`string a = 1; oneof kind { string x = 2; string y = 3; }`), nil},
		{"required added to a oneof", request(`oneof kind { string x = 1; string y = 2; }`),
			request(`oneof kind { option (buf.validate.oneof).required = true; string x = 1; string y = 2; }`),
			[]string{"VALIDATE_ONEOF_REQUIRED_TIGHTENED t.v1.M.kind"}},
		{"required removed from a oneof on a response", response(`oneof kind { option (buf.validate.oneof).required = true; string x = 1; string y = 2; }`),
			response(`oneof kind { string x = 1; string y = 2; }`), []string{"VALIDATE_ONEOF_REQUIRED_LOOSENED t.v1.M.kind"}},
		{"a message oneof rule over new fields, required", request(`string a = 1;`),
			request(`option (buf.validate.message).oneof = {fields: ["x", "y"], required: true}; string a = 1; string x = 2; string y = 3;`),
			[]string{"VALIDATE_MESSAGE_ONEOF_TIGHTENED t.v1.M"}},
		{"a message oneof rule over new fields, not required, is safe", request(`string a = 1;`),
			request(`option (buf.validate.message).oneof = {fields: ["x", "y"]}; string a = 1; string x = 2; string y = 3;`), nil},
		{"a message oneof rule over two existing fields", request(`string x = 1; string y = 2;`),
			request(`option (buf.validate.message).oneof = {fields: ["x", "y"]}; string x = 1; string y = 2;`),
			[]string{"VALIDATE_MESSAGE_ONEOF_TIGHTENED t.v1.M"}},
		{"a message oneof rule removed from a response", response(`option (buf.validate.message).oneof = {fields: ["x", "y"]}; string x = 1; string y = 2;`),
			response(`string x = 1; string y = 2;`), []string{"VALIDATE_MESSAGE_ONEOF_LOOSENED t.v1.M"}},
	})
}

func TestDirections(t *testing.T) {
	const inner = "message Inner { string n = 1 [(buf.validate.field).string.max_len = %s]; }\n"
	withInner := func(wrap func(string) string, body, max string) string {
		return wrap(body) + strings.Replace(inner, "%s", max, 1)
	}
	recursive := func(max string) string {
		return header + "service S { rpc Call(Node) returns (Out); }\nmessage Out {}\n" +
			"message Node { Node child = 1; string n = 2 [(buf.validate.field).string.max_len = " + max + "]; }\n"
	}
	twoRPCs := func(max string) string {
		return header + "service S { rpc Put(P) returns (Out); rpc Get(In) returns (G); }\nmessage Out {}\nmessage In {}\n" +
			"message P { Shared s = 1; }\nmessage G { Shared s = 1; }\n" +
			"message Shared { string n = 1 [(buf.validate.field).string.max_len = " + max + "]; }\n"
	}
	run(t, []diffCase{
		{"a message inside a request is sent by clients", withInner(request, "Inner i = 1;", "9"), withInner(request, "Inner i = 1;", "3"),
			[]string{"VALIDATE_MAX_LEN_TIGHTENED t.v1.Inner.n"}},
		{"a message inside a response is sent by servers", withInner(response, "Inner i = 1;", "9"), withInner(response, "Inner i = 1;", "3"), nil},
		{"a message reached through a oneof", withInner(request, "oneof o { Inner i = 1; }", "9"), withInner(request, "oneof o { Inner i = 1; }", "3"),
			[]string{"VALIDATE_MAX_LEN_TIGHTENED t.v1.Inner.n"}},
		{"a message reached through repeated fields", withInner(response, "repeated Inner i = 1;", "3"), withInner(response, "repeated Inner i = 1;", "9"),
			[]string{"VALIDATE_MAX_LEN_LOOSENED t.v1.Inner.n"}},
		{"a recursive message is compared once", recursive("9"), recursive("3"), []string{"VALIDATE_MAX_LEN_TIGHTENED t.v1.Node.n"}},
		{"a message one RPC sends and another answers travels both ways (tightened)", twoRPCs("9"), twoRPCs("3"),
			[]string{"VALIDATE_MAX_LEN_TIGHTENED t.v1.Shared.n"}},
		{"a message one RPC sends and another answers travels both ways (loosened)", twoRPCs("3"), twoRPCs("9"),
			[]string{"VALIDATE_MAX_LEN_LOOSENED t.v1.Shared.n"}},
		{"a message no RPC carries travels both ways", unreached(`string f = 1 [(buf.validate.field).string.max_len = 3];`),
			unreached(`string f = 1 [(buf.validate.field).string.max_len = 9];`), []string{"VALIDATE_MAX_LEN_LOOSENED t.v1.M.f"}},
		{"an RPC removed still counts for the base's clients", request(`string f = 1 [(buf.validate.field).string.max_len = 9];`),
			header + "message Out {}\nmessage M {\nstring f = 1 [(buf.validate.field).string.max_len = 3];\n}\n" + "service S { rpc Other(Out) returns (M); }\n",
			[]string{"VALIDATE_MAX_LEN_TIGHTENED t.v1.M.f"}},
		{"a new message's rules break nobody", request(`string f = 1;`),
			request(`string f = 1;`) + "message Fresh { string n = 1 [(buf.validate.field).required = true]; }\n", nil},
	})
}

func TestPredefinedRules(t *testing.T) {
	// A predefined rule is an extension of a rule type, declared in a proto2 file; t.proto
	// imports it. Both sides see their own version of it.
	ext := func(expr string) map[string]string {
		return map[string]string{"ext.proto": `syntax = "proto2";
package t.v1;
import "buf/validate/validate.proto";
extend buf.validate.StringRules {
  optional bool no_space = 80048952 [(buf.validate.predefined).cel = {id: "no_space", message: "no space", expression: "` + expr + `"}];
}
`}
	}
	withExt := func(wrap func(string) string, body string) string {
		return strings.Replace(wrap(body), "import \"buf/validate/validate.proto\";\n", "import \"buf/validate/validate.proto\";\nimport \"ext.proto\";\n", 1)
	}
	const use = `string f = 1 [(buf.validate.field).string.(no_space) = true];`
	same := ext("!this.contains(' ')")
	cases := []diffCase{
		{"a predefined rule added on a request", withExt(request, `string f = 1;`), withExt(request, use),
			[]string{"VALIDATE_PREDEFINED_TIGHTENED t.v1.M.f"}},
		{"a predefined rule removed from a response", withExt(response, use), withExt(response, `string f = 1;`),
			[]string{"VALIDATE_PREDEFINED_LOOSENED t.v1.M.f"}},
		{"a predefined rule unchanged", withExt(both, use), withExt(both, use), nil},
		{"a new field with a predefined rule its zero value passes", withExt(request, `string a = 1;`),
			withExt(request, `string a = 1; string f = 2 [(buf.validate.field).string.(no_space) = true];`), nil},
	}
	runWith(t, cases, same)
	// The rule's CEL differs between the sides: compiled apart.
	t.Run("a predefined rule whose CEL changed", func(t *testing.T) {
		base := schematest.Compile(t, "base", map[string]string{"t.proto": withExt(request, use), "ext.proto": ext("!this.contains(' ')")["ext.proto"]})
		head := schematest.Compile(t, "head", map[string]string{"t.proto": withExt(request, use), "ext.proto": ext("!this.contains('x')")["ext.proto"]})
		findings, err := rulediff.Images(base, head)
		if err != nil {
			t.Fatal(err)
		}
		if len(findings) != 1 || findings[0].Rule != "VALIDATE_PREDEFINED_CHANGED" || findings[0].Element != "t.v1.M.f" {
			t.Fatalf("findings: %v", findings)
		}
	})
}

func TestCatalog(t *testing.T) {
	rules := rulediff.Rules()
	// buf asks a check plugin for at most 250 rules per request; more would cost one more round
	// trip (with the whole image) per 250.
	if len(rules) > 250 {
		t.Fatalf("%d rules: buf checks at most 250 per request", len(rules))
	}
	for _, id := range []string{"VALIDATE_MAX_LEN_TIGHTENED", "VALIDATE_CEL_CHANGED", "VALIDATE_DEFINED_ONLY_LOOSENED", "VALIDATE_RANGE_CHANGED",
		"VALIDATE_ONEOF_REQUIRED_TIGHTENED", "VALIDATE_MESSAGE_ONEOF_LOOSENED", "VALIDATE_PREDEFINED_CHANGED", "VALIDATE_RULE_TYPE_CHANGED"} {
		if !rulediff.IsRuleID(id) {
			t.Errorf("%s is not in the catalog", id)
		}
	}
	for _, id := range []string{"VALIDATE_MAX_LEN", "VALIDATE_NO_SUCH_RULE_TIGHTENED", "FIELD_SAME_TYPE"} {
		if rulediff.IsRuleID(id) {
			t.Errorf("%s should not be in the catalog", id)
		}
	}
}
