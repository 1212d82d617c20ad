// Command gate is the contracts' governance gate: `make check` and everything around it. Each
// command prints what it found; on failure the last line says why, and the exit status is 1
// (2 for a command line it does not understand). Bad input — a schema that does not compile, a
// cache entry or findings document it cannot trust, a malformed exceptions file — fails closed
// with a one-line error naming the thing, never a pass.
//
//	gate check [--schema-only] [--only lint,format,breaking,versions,drift]
//	gate breaking [--base REF] [--releases-only]     (BASE_REF: the base, as make check reads it)
//	gate lint | format-check | drift | gen
//	gate versions check|write [--only PREFIX]
//	gate image REV…                                 the contracts' image at each revision
//	gate release plan | notes … | accepted-breaks | tag-check TAG
//	gate pr-comment REPORT.md                        (GH_TOKEN, GITHUB_REPOSITORY, PR_NUMBER)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/acme/contracts/gate/internal/run"
	"github.com/acme/contracts/gate/report"
	"github.com/acme/contracts/gate/versions"
)

type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

func main() {
	err := dispatch(context.Background(), os.Args[1:])
	var usage usageError
	switch {
	case err == nil:
	case errors.As(err, &usage):
		fmt.Fprintln(os.Stderr, "gate: "+usage.msg)
		os.Exit(2)
	case strings.HasPrefix(err.Error(), "governance gate FAILED"):
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	default:
		fmt.Fprintln(os.Stderr, "error: "+strings.ReplaceAll(err.Error(), "\n", " "))
		os.Exit(1)
	}
}

func dispatch(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usageError{"usage: gate check|breaking|lint|format-check|drift|gen|versions|image|release|pr-comment …"}
	}
	cmd, args := args[0], args[1:]
	switch cmd {
	case "versions":
		return versionsCmd(args)
	case "release":
		if len(args) > 0 && args[0] == "tag-check" {
			if len(args) != 2 {
				return usageError{"usage: gate release tag-check TAG"}
			}
			root, _ := os.Getwd()
			return run.TagCheck(root, args[1])
		}
	case "pr-comment":
		return prComment(ctx, args)
	}
	ws, err := run.Open()
	if err != nil {
		return err
	}
	today := time.Now().UTC()
	out := run.CheckOptions{Stdout: os.Stdout, Stderr: os.Stderr, Breaking: run.BreakingOptions{BaseRef: os.Getenv("BASE_REF"), Today: today}}
	switch cmd {
	case "check":
		fs := flag.NewFlagSet("check", flag.ContinueOnError)
		schemaOnly := fs.Bool("schema-only", false, "lint, format and breaking only (the schema-change suite)")
		only := fs.String("only", "", "the checks to run, by commas")
		if err := fs.Parse(args); err != nil {
			return usageError{err.Error()}
		}
		if *schemaOnly {
			out.Only = []string{"lint", "format", "breaking"}
		}
		if *only != "" {
			out.Only = strings.Split(*only, ",")
		}
		return run.Check(ctx, ws, out)
	case "breaking":
		fs := flag.NewFlagSet("breaking", flag.ContinueOnError)
		base := fs.String("base", out.Breaking.BaseRef, "the commit to compare with (default: BASE_REF, else as make check chooses)")
		releasesOnly := fs.Bool("releases-only", false, "compare with every release only")
		if err := fs.Parse(args); err != nil {
			return usageError{err.Error()}
		}
		out.Breaking.BaseRef, out.Breaking.NoBase = *base, *releasesOnly
		out.Only = []string{"breaking"}
		return run.Check(ctx, ws, out)
	case "lint", "drift":
		out.Only = []string{cmd}
		return run.Check(ctx, ws, out)
	case "format-check":
		out.Only = []string{"format"}
		return run.Check(ctx, ws, out)
	case "gen":
		if _, err := versions.Run(ws.Root, "gen/", true); err != nil {
			return err
		}
		c := exec.CommandContext(ctx, "buf", "generate")
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		if err := c.Run(); err != nil {
			return fmt.Errorf("buf generate failed")
		}
		return nil
	case "image":
		if len(args) == 0 {
			return usageError{"usage: gate image REV…"}
		}
		return run.Images(ctx, ws, args, os.Stdout)
	case "release":
		return releaseCmd(ctx, ws, args, today)
	}
	return usageError{"unknown command " + strconv.Quote(cmd)}
}

func versionsCmd(args []string) error {
	fs := flag.NewFlagSet("versions", flag.ContinueOnError)
	only := fs.String("only", "", "only the files under this path prefix")
	if len(args) == 0 || (args[0] != "check" && args[0] != "write") {
		return usageError{"usage: gate versions check|write [--only PREFIX]"}
	}
	if err := fs.Parse(args[1:]); err != nil {
		return usageError{err.Error()}
	}
	root, _ := os.Getwd()
	res, err := versions.Run(root, *only, args[0] == "write")
	if err != nil {
		return err
	}
	if args[0] == "write" {
		for _, p := range res.Written {
			fmt.Printf("wrote versions.env's versions into %s\n", p)
		}
		return nil
	}
	if len(res.Wrong) > 0 {
		fmt.Fprintln(os.Stderr, "versions: these pins differ from versions.env (change versions.env, then run 'make versions'; or undo the edit):")
		fmt.Fprintln(os.Stderr, strings.Join(res.Wrong, "\n"))
		return fmt.Errorf("versions: %d pins differ from versions.env", len(res.Wrong))
	}
	fmt.Printf("versions: %d pins in %d files agree with versions.env\n", res.Pins, res.Files)
	return nil
}

func releaseCmd(ctx context.Context, ws *run.Workspace, args []string, today time.Time) error {
	if len(args) == 0 {
		return usageError{"usage: gate release plan|notes|accepted-breaks|tag-check"}
	}
	switch args[0] {
	case "plan":
		p, err := run.ReleasePlan(ctx, ws, today, os.Stderr)
		if err != nil {
			return err
		}
		fmt.Printf("kind=%s\nlatest=%s\nnext=%s\nbreaks=%s\n", p.Kind, p.Latest, p.Next, strings.Join(p.Breaks, ", "))
		return nil
	case "notes":
		fs := flag.NewFlagSet("notes", flag.ContinueOnError)
		var r report.Release
		fs.StringVar(&r.Tag, "tag", "", "the release's tag")
		fs.StringVar(&r.Previous, "previous", "", "the latest release before it")
		fs.StringVar(&r.Kind, "kind", "", "first, breaking, additions or patch")
		fs.StringVar(&r.Reason, "reason", "", "why a break is released")
		oldClients := fs.String("old-clients", "", "a Markdown list of the cases clients of earlier releases fail")
		if err := fs.Parse(args[1:]); err != nil {
			return usageError{err.Error()}
		}
		if r.Tag == "" || r.Kind == "" {
			return usageError{"usage: gate release notes --tag TAG --kind KIND [--previous TAG] [--reason R] [--old-clients FILE]"}
		}
		return run.ReleaseNotes(ws, r, *oldClients, os.Stdout)
	case "accepted-breaks":
		return run.AcceptedBreaks(ws, os.Stdout)
	}
	return usageError{"unknown release command " + strconv.Quote(args[0])}
}

func prComment(ctx context.Context, args []string) error {
	if len(args) != 1 {
		return usageError{"usage: gate pr-comment REPORT.md"}
	}
	body, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	pr, err := strconv.Atoi(os.Getenv("PR_NUMBER"))
	if err != nil {
		return fmt.Errorf("PR_NUMBER must be the pull request's number")
	}
	gh, err := run.GitHubFromEnv()
	if err != nil {
		return err
	}
	what, err := run.PRComment(ctx, gh, pr, string(body))
	if err != nil {
		return err
	}
	fmt.Println(what)
	return nil
}
