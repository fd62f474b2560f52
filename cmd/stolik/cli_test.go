package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/locales"
)

// rawValue finds what must never reach a reader: Go values (maps, nil,
// format errors), error codes and their parameters, locale keys.
var rawValue = regexp.MustCompile(`map\[|<nil>|%!|\bunknown_[a-z_]+|\b[a-z]+_[a-z_]+ [a-z]+=|⟦|\berror\.[a-z_]+|flag provided|invalid value|parse error|strconv\.`)

// Bad command lines are refused with a clear message in the language
// asked for, and a non-zero exit code; --help works on every command; a
// command that reads a database never creates one.
func TestCommandLineMistakes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	b := locales.MustLoad()
	en, pl, uk := b.Lang("en"), b.Lang("pl"), b.Lang("uk")
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"play", "princesses", "--lang", "de"}, 2, []string{`"de"`, "en, pl, uk"}},
		{[]string{"play", "princesses", "--lang=xx"}, 2, []string{`"xx"`, "en, pl, uk"}},
		{[]string{"play", "foo", "--lang", "pl"}, 2, []string{`"foo"`, pl.T("game.princesses.name", nil)}},
		{[]string{"play", "--lang", "uk"}, 2, []string{"Яка гра?", "princesses"}},
		{[]string{"sim", "princesses", "-n", "0"}, 2, []string{en.T("cli.sim.n", nil)}},
		{[]string{"sim", "princesses", "-n", "-3", "--lang", "pl"}, 2, []string{pl.T("cli.sim.n", nil)}},
		{[]string{"sim", "princesses", "-n", "1", "--bots", "genius"}, 2, []string{`"genius"`, "heuristic, random"}},
		{[]string{"sim", "princesses", "-n", "1", "--seats", "9", "--lang", "uk"}, 2, []string{"3", "6", "9"}},
		{[]string{"sim", "lynx", "-n", "2", "--seats", "2"}, 0, []string{"options none", "errors: 0"}},
		{[]string{"sim", "chapters", "-n", "2", "--seats", "2", "--bots", "hard,easy", "--budget", "100"}, 0, []string{"win share (95% CI)", "seat 0 decision time: ", "errors: 0"}},
		{[]string{"play", "lynx", "--ai", "genius", "--lang", "pl"}, 2, []string{`"genius"`, "easy, normal albo hard"}},
		{[]string{"sim", "lynx", "-n", "1", "--option", "mode=zz"}, 2, []string{"mode=zz"}},
		{[]string{"replay", "--db", missing, "--table", "x"}, 2, []string{missing}},
		{[]string{"replay", "--db", missing, "--table", "x", "--lang", "pl"}, 2, []string{"Nie ma bazy danych"}},
		{[]string{"replay", "--db", missing}, 2, []string{missing}},
		{[]string{"replay", "--table", "x"}, 2, []string{"--db"}},
		{[]string{"replay", "--db"}, 2, []string{"--db"}},
		{[]string{"check", "--db", missing}, 2, []string{missing}},
		{[]string{"play", "--db", missing, "--table", "x", "--lang", "uk"}, 2, []string{"Бази даних"}},
		{[]string{"play", "--table", "x"}, 2, []string{"--db"}},
		{[]string{"play", "lynx", "--seats", "abc"}, 2, []string{"--seats", `"abc"`}},
		{[]string{"play", "lynx", "--seats", "9", "--lang", "pl"}, 2, []string{"od 2 do 5"}},
		{[]string{"play", "lynx", "--bogus"}, 2, []string{"--bogus"}},
		{[]string{"play", "lynx", "--option", "zzz"}, 2, []string{"key=value", `"zzz"`}},
		{[]string{"play", "princesses", "--option", "edition=gold", "--lang", "pl"}, 2, []string{"edition=gold"}},
		{[]string{"play", "lynx", "extra"}, 2, []string{`"extra"`}},
		{[]string{"loadtest", "--games", "foo"}, 2, []string{`"foo"`, "princesses"}},
		{[]string{"loadtest", "--games", "lynx,bar", "--lang", "uk"}, 2, []string{`"bar"`, "Немає гри"}},
		{[]string{"loadtest", "--ai", "2"}, 2, []string{"0", "1", "2"}},
		{[]string{"loadtest", "--tables", "0"}, 2, []string{"--tables"}},
		{[]string{"rules", "lynx", "--topic", "x", "--lang", "uk"}, 2, []string{uk.T("game.lynx.name", nil)}},
		{[]string{"scenario"}, 2, []string{"scenario"}},
	}
	for _, cmd := range []string{"play", "replay", "rules", "sim", "loadtest", "check", "scenario", "serve"} {
		for _, h := range []string{"--help", "-h"} {
			cases = append(cases, struct {
				args []string
				code int
				want []string
			}{[]string{cmd, h}, 0, []string{"stolik " + cmd}})
		}
	}
	cases = append(cases, struct {
		args []string
		code int
		want []string
	}{[]string{"play", "lynx", "--help", "--lang", "pl"}, 0, []string{"stolik play <gra>", "--pictures"}})
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tc.args, strings.NewReader(""), &out, &errOut)
			all := out.String() + errOut.String()
			if code != tc.code {
				t.Errorf("exit %d, want %d:\n%s", code, tc.code, all)
			}
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("the output lacks %q:\n%s", w, all)
				}
			}
			if m := rawValue.FindString(all); m != "" {
				t.Errorf("the output holds a raw value %q:\n%s", m, all)
			}
			if strings.Contains(all, "which game") && tc.code == 0 {
				t.Errorf("help asks for a game:\n%s", all)
			}
		})
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("a read command created %s (%v)", missing, err)
	}
}

// No help text is wider than 80 columns.
func TestHelpFitsTheTerminal(t *testing.T) {
	t.Parallel()
	for _, lang := range locales.Languages() {
		l := locales.MustLoad().Lang(lang)
		for _, cmd := range []string{"play", "replay", "rules", "sim", "loadtest", "check", "scenario"} {
			for _, line := range strings.Split(l.T("cli.usage."+cmd, map[string]any{"List": "chapters, courtiers, lynx, princesses"}), "\n") {
				if width(line) > termWidth {
					t.Errorf("%s %s: %q is %d columns wide", lang, cmd, line, width(line))
				}
			}
		}
	}
}

// A flag is named in an error as the usage writes it: -n, --seats.
func TestFlagErrorsNameTheFlag(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "lynx", "-n", "abc"}, " -n "},
		{[]string{"play", "lynx", "--seats", "abc"}, " --seats "},
	} {
		var out bytes.Buffer
		if code := run(context.Background(), tc.args, strings.NewReader(""), &out, &out); code != 2 || !strings.Contains(out.String(), tc.want) || strings.Contains(tc.want, "-n") && strings.Contains(out.String(), "--n") {
			t.Errorf("%v: exit %d, want 2 naming %q:\n%s", tc.args, code, tc.want, out.String())
		}
	}
}
