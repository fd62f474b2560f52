package bot

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// FuzzParseGameID: no custom_id makes the parser panic, and what it accepts
// names a table without '/', a version and an action, and prints back to a
// custom_id that parses to the same click.
//
//	go test -run XXX -fuzz FuzzParseGameID -fuzztime 60s ./bot/
func FuzzParseGameID(f *testing.F) {
	for _, s := range []string{"t/abc/3/play Q7", "t/abc/0/~hand", "t//1/x", "t/a/-1/x", "t/a/1/", "t/a/99999999999999999999/x",
		"hand/abc", "lobby/abc/join", "stall/abc/1/wait", "t/a/1/pass Q1 *", strings.Repeat("t/", 60)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cid string) {
		c, ok := parseGameID(cid)
		if !ok {
			return
		}
		if c.table == "" || strings.Contains(c.table, "/") || c.version < 0 || c.action == "" {
			t.Fatalf("%q parsed to %+v", cid, c)
		}
		again, ok := parseGameID(actionID(c.table, c.version, c.action))
		if !ok || again != c {
			t.Fatalf("%q: %+v prints as %q, which parses to %+v", cid, c, actionID(c.table, c.version, c.action), again)
		}
		if !strings.HasPrefix(cid, "t/"+c.table+"/") || !strings.HasSuffix(cid, "/"+c.action) || strconv.Itoa(c.version) == "" {
			t.Fatalf("%q parsed to %+v", cid, c)
		}
	})
}

// FuzzLoadConfig: any configuration file is loaded or refused with an
// error, never a panic; what loads is valid; and no error shows a piece of
// a token written anywhere in the file ("@T" in the input stands for one).
//
//	go test -run XXX -fuzz FuzzLoadConfig -fuzztime 60s ./bot/
func FuzzLoadConfig(f *testing.F) {
	for _, s := range []string{
		"token = \"x\"\n", "token = \"x\"\nguild_id = \"12\"\ndefault_lang = \"pl\"\nshutdown_timeout = \"3s\"\n",
		"token = 1\n", "[x]\ny = 2\n", "token = \"x\"\nlog_level = \"loud\"\n", "token = \"x\"\npublish_interval = \"-1s\"\n",
		"token = \"x\"\ntable_cache = -5\nping_quiet = \"1h\"\n", "\x00\xff", "token = \"\"\"\n",
		"token = @T\n", "token = \"@T\"\nlog_level = @T\n", "@T\n", "token = \"x\"\n[@T]\n", "token = \"Bot @T\"\n",
		"token = \"x\"\nresume_window = \"@T\"\n", "token = \"x\"\ntable_cache = \"@T\"\n", "token = '@T\n",
		"token = \"x\"\n\"@T\" = 1\n", "token = \"x\"\nai_bot = [\"@T\"]\n", "token = \"x\"\ndatabase = { a = \"@T\" }\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		text = strings.ReplaceAll(text, "@T", tokenLike)
		path := filepath.Join(t.TempDir(), "stolik.toml")
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := Load(path, false, func(string) string { return "" })
		if err != nil {
			if piece, ok := leaks(strings.ReplaceAll(err.Error(), path, ""), tokenLike); ok && strings.Contains(text, tokenLike) {
				t.Fatalf("the error shows %q of the token: %v", piece, err)
			}
			return
		}
		if verr := cfg.Validate(); verr != nil {
			t.Fatalf("Load accepted an invalid configuration: %v", verr)
		}
	})
}
