package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadtestRecordsWindow: --trace and --cpuprofile together each write
// their file (an execution trace, a gzipped profile) and the report is
// printed.
func TestLoadtestRecordsWindow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tr, prof := filepath.Join(dir, "lt.trace"), filepath.Join(dir, "cpu.prof")
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"loadtest", "--tables", "4", "--duration", "1s", "--think", "50ms", "-q",
		"--pictures", "off", "--dir", dir, "--trace", tr, "--cpuprofile", prof}, strings.NewReader(""), &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "ack latency") {
		t.Errorf("no report:\n%s", out.String())
	}
	for _, f := range []struct {
		path  string
		magic string
	}{{tr, "go 1."}, {prof, "\x1f\x8b"}} {
		b, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte(f.magic)) || len(b) < 100 {
			t.Errorf("%s: %d bytes beginning %q", filepath.Base(f.path), len(b), b[:min(len(b), 8)])
		}
	}
}
