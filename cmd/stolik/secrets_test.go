package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/locales"
)

// TestNoSecretPrinted runs the commands that take a database URL or a
// path with secrets planted in them (a PostgreSQL password, a bot token
// given where a path belongs) and checks that nothing they print holds a
// secret. The databases cannot be reached (port 1), so every command
// fails and prints its error.
func TestNoSecretPrinted(t *testing.T) {
	t.Parallel()
	const pw = "PlantedPassw0rd"
	const token = "MTA5ODc2NTQzMjEwOTg3NjU0.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"
	url := "postgres://stolik:" + pw + "@127.0.0.1:1/stolik?connect_timeout=2"
	dir := t.TempDir()
	for _, args := range [][]string{
		{"play", "princesses", "--db", url},
		{"migrate-db", "--from", url, "--to", filepath.Join(dir, "to.db")},
		{"migrate-db", "--from", filepath.Join(dir, "none.db"), "--to", url},
		{"check", "--db", url},
		{"replay", "--db", url, "--table", "abc"},
		{"serve", "--config", token},
		{"serve", "--config", filepath.Join(dir, token+".toml")},
		{token},
	} {
		t.Run(args[0], func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var out, errOut bytes.Buffer
			code := run(ctx, args, strings.NewReader("quit\n"), &out, &errOut)
			all := out.String() + errOut.String()
			if code == 0 {
				t.Errorf("%v succeeded against an unreachable database: %s", args, all)
			}
			for _, secret := range []string{pw, token} {
				if strings.Contains(all, secret) {
					t.Errorf("%v printed a secret:\n%s", args, all)
				}
			}
		})
	}
}

// TestBadOptionValueListsTheValues: an option value the game refuses is
// answered with the values the option takes, in the chosen language.
func TestBadOptionValueListsTheValues(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "lynx", "--option", "mode=insane"}, "The values it takes: basic, advanced, expert."},
		{[]string{"play", "lynx", "--option", "mode=insane", "--lang", "pl"}, "Dopuszczalne wartości: basic, advanced, expert."},
		{[]string{"play", "princesses", "--option", "edition=x", "--lang", "uk"}, "Допустимі значення: deluxe, classic."},
	} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), c.args, strings.NewReader(""), &out, &errOut); code == 0 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, %q; want %q in it", c.args, code, errOut.String(), c.want)
		}
	}
}

// TestHelpListsTheGamesCommands: help offers power and missions only in
// games that have something to show for them.
func TestHelpListsTheGamesCommands(t *testing.T) {
	t.Parallel()
	l := locales.MustLoad().Lang("en")
	power, missions := l.T("term.help.cmd.power", nil), l.T("term.help.cmd.missions", nil)
	for _, c := range []struct {
		game                string
		wantPower, wantMiss bool
	}{
		{"lynx", false, false},
		{"chapters", true, false}, // the cards' abilities
		{"courtiers", true, true},
	} {
		var out, errOut bytes.Buffer
		run(context.Background(), []string{"play", c.game, "--seed", "3"}, strings.NewReader("help\nquit\n"), &out, &errOut)
		text := strings.Join(strings.Fields(out.String()), " ") // the help is wrapped
		if got := strings.Contains(text, power); got != c.wantPower {
			t.Errorf("%s: help offers power: %v, want %v", c.game, got, c.wantPower)
		}
		if got := strings.Contains(text, missions); got != c.wantMiss {
			t.Errorf("%s: help offers missions: %v, want %v", c.game, got, c.wantMiss)
		}
		if !strings.Contains(text, l.T("term.help.cmd.quit", nil)) {
			t.Errorf("%s: no help shown: %s", c.game, text)
		}
	}
}

// TestReplayInTheTablesLanguage: replay speaks the table's language unless
// --lang asks for another.
func TestReplayInTheTablesLanguage(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "stolik.db")
	out, code := playGame(t, "pl", "--seats", "3", "--seed", "11", "--option", "rounds=a", "--db", db)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	m := tableID.FindStringSubmatch(unwrapped(out))
	if m == nil {
		t.Fatalf("no table id in output:\n%s", out)
	}
	b := locales.MustLoad()
	for _, c := range []struct {
		args []string
		lang string
	}{
		{nil, "pl"},
		{[]string{"--lang", "uk"}, "uk"},
	} {
		var rep bytes.Buffer
		args := append([]string{"replay", "--db", db, "--table", m[1]}, c.args...)
		if code := run(context.Background(), args, nil, &rep, &rep); code != 0 {
			t.Fatalf("%v: exit %d:\n%s", args, code, rep.String())
		}
		head, _, _ := strings.Cut(b.Lang(c.lang).T("term.replay.header_all", map[string]any{"ID": m[1], "Game": "\x00", "Players": ""}), "\x00")
		if !strings.HasPrefix(rep.String(), head) {
			t.Errorf("%v: the replay begins %q, want %q", args, strings.SplitN(rep.String(), "\n", 2)[0], head)
		}
	}
}
