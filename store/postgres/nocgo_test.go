package postgres_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestBuildsWithoutCgo: the PostgreSQL store, and the backend-neutral
// package store it imports, depend on neither the SQLite adapter nor
// go-sqlite3 (which needs cgo), and build with CGO_ENABLED=0; so does a
// program that uses only this store. The root names no database driver at
// all.
func TestBuildsWithoutCgo(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		if goTool, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command to list the dependencies with")
		}
	}
	const mod = "github.com/stolik-bot/stolik/"
	sqliteDeps := []string{"github.com/mattn/go-sqlite3", mod + "store/sqlite", mod + "store/open"}
	for pkg, forbidden := range map[string][]string{
		mod + "store/postgres": sqliteDeps,
		mod + "store":          append([]string{"github.com/jackc/pgx"}, sqliteDeps...),
	} {
		deps := goCmd(t, goTool, "list", "-deps", pkg)
		for _, dep := range strings.Fields(deps) {
			for _, f := range forbidden {
				if dep == f || strings.HasPrefix(dep, f+"/") {
					t.Errorf("%s depends on %s (go list -deps with CGO_ENABLED=0)", pkg, dep)
				}
			}
		}
	}
	goCmd(t, goTool, "build", mod+"store", mod+"store/postgres")
}

// goCmd runs the go command with cgo off and returns its output.
func goCmd(t *testing.T, goTool string, args ...string) string {
	t.Helper()
	cmd := exec.Command(goTool, args...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("CGO_ENABLED=0 go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
