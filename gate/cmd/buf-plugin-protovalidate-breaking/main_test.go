package main

import (
	"os"
	"testing"

	"buf.build/go/bufplugin/check/checktest"
)

// validateDir holds buf/validate/validate.proto: set-up extracts it from the pinned
// protovalidate jar (no third-party proto is committed).
const validateDir = "../../../.tmp/proto-deps"

func TestSpec(t *testing.T) {
	checktest.SpecTest(t, spec)
}

func files(t *testing.T, dir string) *checktest.ProtoFileSpec {
	t.Helper()
	if _, err := os.Stat(validateDir + "/buf/validate/validate.proto"); err != nil {
		t.Fatalf("%s/buf/validate/validate.proto is missing: run make setup", validateDir)
	}
	return &checktest.ProtoFileSpec{DirPaths: []string{validateDir, dir}, FilePaths: []string{"people.proto"}}
}

// Each case is a folder: previous/ (what clients and servers run) and current/ (the change).
// Locations are 0-based, as buf's plugin protocol carries them.
func TestCases(t *testing.T) {
	for _, c := range []struct {
		dir  string
		want []checktest.ExpectedAnnotation
	}{
		{"new_field_on_request", []checktest.ExpectedAnnotation{{
			RuleID: "VALIDATE_MIN_LEN_TIGHTENED",
			FileLocation: &checktest.ExpectedFileLocation{
				FileName: "people.proto", StartLine: 12, StartColumn: 2, EndLine: 12, EndColumn: 62,
			},
		}}},
		{"loosened_on_response", []checktest.ExpectedAnnotation{{
			RuleID: "VALIDATE_EMAIL_LOOSENED",
			FileLocation: &checktest.ExpectedFileLocation{
				FileName: "people.proto", StartLine: 14, StartColumn: 2, EndLine: 14, EndColumn: 19,
			},
			AgainstFileLocation: &checktest.ExpectedFileLocation{
				FileName: "people.proto", StartLine: 14, StartColumn: 2, EndLine: 14, EndColumn: 62,
			},
		}}},
	} {
		t.Run(c.dir, func(t *testing.T) {
			checktest.CheckTest{
				Request: &checktest.RequestSpec{
					Files:        files(t, "testdata/"+c.dir+"/current"),
					AgainstFiles: files(t, "testdata/"+c.dir+"/previous"),
				},
				Spec:                spec,
				ExpectedAnnotations: c.want,
			}.Run(t)
		})
	}
}
