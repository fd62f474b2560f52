package engine_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/stolik-bot/stolik"

// TestImportBoundary reads the import graph of every engine package and
// fails when the engine reaches for Discord, SQL, the locale files, wall
// clock time or the global random number generator. Rule 1 of DESIGN.md.
func TestImportBoundary(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if why := forbidden(filepath.ToSlash(path), p); why != "" {
				t.Errorf("%s imports %q: %s", path, p, why)
			}
			if p == "math/rand/v2" {
				checkRandUse(t, path, f, imp)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Fatalf("only %d engine files checked; is the walk broken?", checked)
	}
}

// forbidden says why file may not import p ("" when it may).
func forbidden(file, p string) string {
	first, _, _ := strings.Cut(p, "/")
	switch {
	case strings.HasPrefix(p, module+"/engine"):
		return ""
	case strings.HasPrefix(p, module):
		return "the engine may import only itself (no locales, render, store, bot)"
	case strings.Contains(first, "."):
		return "the engine may import only the standard library"
	case p == "database/sql" || strings.HasPrefix(p, "database/") || strings.HasPrefix(p, "net"):
		return "the engine knows nothing of SQL or the network"
	case p == "math/rand":
		return "randomness comes from engine.Rand only"
	case p == "math/rand/v2" && file != "rand.go":
		return "randomness comes from engine.Rand only (engine/rand.go)"
	case p == "time" && !strings.HasPrefix(file, "table/"):
		return "only the table service may use time"
	}
	return ""
}

// checkRandUse allows math/rand/v2 only for building a seeded generator,
// never its global functions.
func checkRandUse(t *testing.T, path string, f *ast.File, imp *ast.ImportSpec) {
	name := "rand"
	if imp.Name != nil {
		name = imp.Name.Name
	}
	allowed := map[string]bool{"New": true, "NewChaCha8": true, "Rand": true, "ChaCha8": true}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && id.Name == name && !allowed[sel.Sel.Name] {
			t.Errorf("%s uses the global %s.%s", path, name, sel.Sel.Name)
		}
		return true
	})
}
