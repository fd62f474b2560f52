// Command stolik is the one binary of Stolik: the Discord bot (serve), a
// whole game in the terminal (play), the scenario runner (scenario), AI
// simulations (sim), the replay of a stored table (replay), a game's rules
// (rules), the load test (loadtest) and the database check (check).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	_ "github.com/stolik-bot/stolik/games" // every game, registered
	"github.com/stolik-bot/stolik/redact"

	"github.com/stolik-bot/stolik/engine"
)

const usage = `stolik — tabletop card games for groups, on Discord and in the terminal.

Usage:
  stolik serve [--config FILE]
  stolik play <game> [--seats N] [--lang en|pl|uk] [--option k=v ...] [--seed S] [--db FILE] [--pictures DIR]
  stolik play --db FILE --table ID [--lang en|pl|uk]
  stolik scenario FILE...
  stolik sim <game> -n N [--seats N] [--seed S] [--option k=v ...] [--bots heuristic,random,...]
  stolik replay --db FILE [--table ID] [--seat N] [--reveal] [--lang en|pl|uk]
  stolik rules <game> [--topic T | --card NAME] [--lang en|pl|uk]
  stolik loadtest [--tables N] [--duration D] [--think D] [--games a,b] [--cache N] [--limits on|off] [--knee N] [--db postgres://… [--processes N]]
  stolik check --db FILE [--mark-corrupt]
  stolik migrate-db --from FILE --to postgres://USER:PASSWORD@HOST:PORT/DATABASE [--resume]

Games: %s
Every command explains itself with --help (stolik play --help).
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// The first Ctrl-C asks the command to end cleanly; the second one
		// ends the process at once (the default signal handling, restored).
		<-ctx.Done()
		stop()
	}()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one subcommand and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Whatever a command prints passes the redactor: a password or token
	// quoted by a driver's error, or given in the wrong place, is not shown.
	stdout, stderr = redact.NewWriter(stdout), redact.NewWriter(stderr)
	if len(args) == 0 {
		fmt.Fprintf(stderr, usage, strings.Join(engine.Games(), ", "))
		return 2
	}
	var err error
	switch args[0] {
	case "serve":
		err = cmdServe(ctx, args[1:], stdout, stderr)
	case "play":
		err = cmdPlay(ctx, args[1:], stdin, stdout)
	case "scenario":
		err = cmdScenario(args[1:], stdout)
	case "sim":
		err = cmdSim(args[1:], stdout)
	case "replay":
		err = cmdReplay(ctx, args[1:], stdout)
	case "loadtest":
		err = cmdLoadtest(ctx, args[1:], stdout)
	case "rules":
		err = cmdRules(args[1:], stdout)
	case "check":
		err = cmdCheck(ctx, args[1:], stdout)
	case "migrate-db":
		err = cmdMigrateDB(ctx, args[1:], stdout)
	case "help", "-h", "--help":
		fmt.Fprintf(stdout, usage, strings.Join(engine.Games(), ", "))
		return 0
	default:
		fmt.Fprintf(stderr, "stolik: unknown command %s\n", shownArg(args[0]))
		fmt.Fprintf(stderr, usage, strings.Join(engine.Games(), ", "))
		return 2
	}
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "stolik:", err)
		return 2
	default:
		fmt.Fprintln(stderr, "stolik:", err)
		return 1
	}
}

// shownArg quotes a command-line word in an error only when it looks like
// a command or a name (short, letters, digits and dashes): anything else may
// be a secret pasted in the wrong place (a bot token), and is not shown.
func shownArg(s string) string {
	if len(s) > 24 {
		return "(not shown)"
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return "(not shown)"
		}
	}
	return strconv.Quote(s)
}

// usageError is a mistake in the command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// optionFlags collects repeated --option k=v flags.
type optionFlags engine.Options

func (o optionFlags) String() string { return fmt.Sprint(map[string]string(o)) }

func (o optionFlags) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("option %q is not k=v", v)
	}
	o[k] = val
	return nil
}
