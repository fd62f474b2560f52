package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/store"
	"github.com/stolik-bot/stolik/store/sqlite"
)

// The command line speaks the language given with --lang (English by
// default): its help, its refusals and its errors come from the locale
// files, under cli.*.

var bundle = sync.OnceValue(func() *locales.Bundle { return locales.MustLoad() })

// cliLang is the language asked for with --lang among a command's
// arguments: English when none is; an error, in English and naming the
// languages there are, for one Stolik does not speak.
func cliLang(args []string) (*locales.Localizer, error) {
	en := bundle().Lang("en")
	for i, a := range args {
		if a == "--" {
			break
		}
		name, value, has := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "lang" {
			continue
		}
		if !has {
			if i+1 >= len(args) {
				return en, nil // the flag parser says that the value is missing
			}
			value = args[i+1]
		}
		if !slices.Contains(locales.Languages(), value) {
			return en, usageError{en.T("cli.bad_lang", map[string]any{"Value": shownArg(value), "List": strings.Join(locales.Languages(), ", ")})}
		}
		return bundle().Lang(value), nil
	}
	return en, nil
}

// helpAsked reports whether args ask for a command's help (-h, -help,
// --help), wherever they stand.
func helpAsked(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-h" || a == "-help" || a == "--help" {
			return true
		}
	}
	return false
}

// showHelp prints a command's help in the reader's language and returns
// flag.ErrHelp (exit code 0).
func showHelp(l *locales.Localizer, cmd string, out io.Writer) error {
	fmt.Fprintln(out, l.T("cli.usage."+cmd, map[string]any{"List": strings.Join(engine.Games(), ", ")}))
	return flag.ErrHelp
}

// gameList names the games for a reader: "princesses (Rebel Princess), …".
func gameList(l *locales.Localizer) string {
	var parts []string
	for _, id := range engine.Games() {
		parts = append(parts, id+" ("+l.T("game."+id+".name", nil)+")")
	}
	return strings.Join(parts, ", ")
}

// findGame takes the game id from args (before or after the flags): the
// game, the other arguments, and whether one was given. An id that is no
// game is a usage error naming the games.
func findGame(l *locales.Localizer, args []string) (engine.Game, []string, bool, error) {
	for i, a := range args {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") || (i > 0 && needsValue(args[i-1])) {
			continue
		}
		g, err := engine.Lookup(a)
		if err != nil {
			return nil, nil, false, usageError{l.T("cli.unknown_game", map[string]any{"Game": shownArg(a), "List": gameList(l)})}
		}
		rest := append(append([]string{}, args[:i]...), args[i+1:]...)
		return g, rest, true, nil
	}
	return nil, args, false, nil
}

// needGame is findGame for a command that cannot go without a game.
func needGame(l *locales.Localizer, cmd string, args []string) (engine.Game, []string, error) {
	g, rest, ok, err := findGame(l, args)
	if err == nil && !ok {
		err = usageError{l.T("cli.which_game", map[string]any{"Action": cmd, "List": gameList(l)})}
	}
	return g, rest, err
}

// needsValue reports whether a flag takes the next argument as its value.
func needsValue(a string) bool {
	if !strings.HasPrefix(a, "-") || strings.Contains(a, "=") {
		return false
	}
	switch strings.TrimLeft(a, "-") {
	case "seats", "lang", "option", "seed", "db", "n", "bots", "table", "max-steps", "topic", "card", "seat",
		"pictures", "tables", "duration", "think", "games", "ai", "dir", "cache", "cpuprofile", "memprofile", "processes":
		return true
	}
	return false
}

var (
	flagUndefined = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	flagNoValue   = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
	flagBadValue  = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-+([^:]*)`)
)

// parseFlags parses a command's flags, saying what is wrong in the
// reader's language (the flag package's own messages are English and
// quote what they refuse); an argument left over is refused too.
func parseFlags(l *locales.Localizer, cmd string, fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	data := map[string]any{"Action": cmd}
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		return err
	case flagUndefined.MatchString(err.Error()):
		data["Name"] = dashed(strings.Trim(shownArg(flagUndefined.FindStringSubmatch(err.Error())[1]), `"`))
		return usageError{l.T("cli.flag.unknown", data)}
	case flagNoValue.MatchString(err.Error()):
		data["Name"] = dashed(flagNoValue.FindStringSubmatch(err.Error())[1])
		return usageError{l.T("cli.flag.no_value", data)}
	case flagBadValue.MatchString(err.Error()):
		m := flagBadValue.FindStringSubmatch(err.Error())
		data["Value"], data["Name"] = shownArg(m[1]), dashed(m[2])
		if m[2] == "option" {
			return usageError{l.T("cli.flag.option", data)}
		}
		return usageError{l.T("cli.flag.bad_value", data)}
	default:
		return usageError{l.T("cli.flag.bad", data)}
	}
	if fs.NArg() > 0 {
		data["Value"] = shownArg(fs.Arg(0))
		return usageError{l.T("cli.extra_arg", data)}
	}
	return nil
}

// dashed is a flag's name as the usage writes it: -n for a one-letter
// flag, --seats for the others.
func dashed(name string) string {
	if len([]rune(name)) == 1 {
		return "-" + name
	}
	return "--" + name
}

// setFlags lists the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// dbError says in the reader's language why a database or a table in it
// cannot be used; other errors are returned as they are.
func dbError(l *locales.Localizer, path, id string, err error) error {
	data := map[string]any{"Name": path, "ID": id}
	var ce *table.CorruptError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrNoDatabase):
		return usageError{l.T("cli.db.missing", data)}
	case sqlite.IsNotADatabase(err):
		return errors.New(l.T("cli.db.not_a_database", data))
	case errors.Is(err, store.ErrReadOnly):
		return errors.New(l.T("cli.db.read_only", data))
	case errors.Is(err, store.ErrSchemaTooNew):
		return errors.New(l.T("cli.db.too_new", data))
	case errors.Is(err, table.ErrNotFound):
		return usageError{l.T("cli.db.no_table", data)}
	case errors.Is(err, store.ErrMarkedCorrupt), errors.As(err, &ce):
		return errors.New(l.T("cli.db.corrupt", data))
	}
	var re *engine.RuleError
	if errors.As(err, &re) {
		return usageError{render.Error(l, err)}
	}
	data["Text"] = err.Error()
	return errors.New(l.T("cli.db.failed", data))
}

// codeMark is Markdown's `code` around one notation id (`cinderella`,
// `haggle`), which the terminal shows in brackets, as its screens show
// notation, so that it never reads as part of the name before it.
var codeMark = regexp.MustCompile("`([a-z0-9][a-z0-9-]*)`")

// plainText turns the Markdown of a text written for Discord into plain
// terminal text: no **bold**, *italics*, `code` marks or > quotes, a
// notation id in brackets; a bullet "* " becomes "- ".
func plainText(s string) string {
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case trimmed == ">":
			line = ""
		case strings.HasPrefix(trimmed, "> "):
			line = strings.TrimPrefix(trimmed, "> ")
		case strings.HasPrefix(trimmed, ">>> "):
			line = strings.TrimPrefix(trimmed, ">>> ")
		}
		lead := line[:len(line)-len(strings.TrimLeft(line, " "))]
		rest := line[len(lead):]
		if strings.HasPrefix(rest, "* ") || strings.HasPrefix(rest, "- ") {
			lead, rest = lead+"- ", rest[2:]
		}
		rest = codeMark.ReplaceAllString(rest, "[$1]")
		rest = strings.NewReplacer("**", "", "`", "", "\\*", "\x00").Replace(rest)
		rest = strings.ReplaceAll(rest, "*", "")
		lines[i] = lead + strings.ReplaceAll(rest, "\x00", "*")
	}
	return strings.Join(lines, "\n")
}
