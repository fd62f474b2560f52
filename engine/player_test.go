package engine

import "testing"

type heuristic struct{}

func (heuristic) Choose(_ View, legal []Action, _ *Rand) Action { return legal[0] }

func TestBotOf(t *testing.T) {
	for _, tc := range []struct {
		kind string
		want Player
		code string
	}{
		{"random", Random{}, ""},
		{"heuristic", heuristic{}, ""},
		{"", heuristic{}, ""},
		{"genius", nil, CodeBadOption},
	} {
		p, err := BotOf(tc.kind, heuristic{})
		if p != tc.want || Code(err) != tc.code {
			t.Errorf("%q: %#v, %v", tc.kind, p, err)
		}
	}
}
