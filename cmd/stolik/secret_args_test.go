package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestCommandLineErrorsHideSecrets: a bot token pasted in the wrong place on
// the command line (as the command, as an argument or a flag of serve) is
// refused with exit code 2, and no piece of it is printed.
func TestCommandLineErrorsHideSecrets(t *testing.T) {
	const token = "MTE5ODc2NTQzMjEwOTg3NjU0.GhIjKl.mNoPqRsTuVwXyZ0123456789abcdefgh"
	for _, args := range [][]string{
		{token},
		{"serve", token},
		{"serve", "-" + token},
		{"serve", "--token=" + token},
		{"serve", "--config"},
		{"serve", "--config", "x.toml", token},
	} {
		t.Run(strings.Join(args, " ")[:min(20, len(strings.Join(args, " ")))], func(t *testing.T) {
			t.Setenv("DISCORD_TOKEN", "")
			var out, errOut bytes.Buffer
			if code := run(context.Background(), args, strings.NewReader(""), &out, &errOut); code != 2 {
				t.Errorf("exit code %d, want 2 (stderr %q)", code, errOut.String())
			}
			all := out.String() + errOut.String()
			if all == "" {
				t.Error("nothing said")
			}
			for i := 0; i+6 <= len(token); i++ {
				if strings.Contains(all, token[i:i+6]) {
					t.Fatalf("the output holds %q of the token: %q", token[i:i+6], all)
				}
			}
		})
	}
	var out bytes.Buffer
	if code := run(context.Background(), []string{"sevre"}, nil, &out, &out); code != 2 || !strings.Contains(out.String(), `"sevre"`) {
		t.Errorf("a mistyped command is named: %d %q", code, out.String())
	}
}
