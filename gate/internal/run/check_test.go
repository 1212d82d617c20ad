package run

import (
	"context"
	"strings"
	"testing"
)

// A misspelt check name ran nothing and passed: `--only breakin` in a workflow turned the gate off.
func TestCheckRefusesAnUnknownCheck(t *testing.T) {
	err := Check(context.Background(), &Workspace{}, CheckOptions{Only: []string{"lint", "breakin"}})
	if err == nil || !strings.Contains(err.Error(), `no check "breakin": the checks are lint, format, breaking, versions, drift`) {
		t.Errorf("%v", err)
	}
}
