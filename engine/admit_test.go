package engine

import "testing"

type ownAction string

func (a ownAction) String() string { return string(a) }

type otherAction string

func (a otherAction) String() string { return string(a) }

func TestAdmit(t *testing.T) {
	yes := func(ownAction) bool { return true }
	no := func(ownAction) bool { return false }
	cases := []struct {
		name   string
		a      Action
		over   bool
		mayAct func(ownAction) bool
		code   string
	}{
		{"admitted", ownAction("play 1"), false, yes, ""},
		{"another game's action", otherAction("play 1"), false, yes, CodeUnknownAction},
		{"game over", ownAction("play 1"), true, yes, CodeGameOver},
		{"not this seat's turn", ownAction("play 1"), false, no, CodeNotYourTurn},
		{"over comes before the turn", ownAction("play 1"), true, no, CodeGameOver},
	}
	for _, tc := range cases {
		act, err := Admit(tc.a, tc.over, 2, tc.mayAct)
		if Code(err) != tc.code {
			t.Errorf("%s: code %q, want %q", tc.name, Code(err), tc.code)
		}
		if err == nil && act != tc.a {
			t.Errorf("%s: admitted %v, want %v", tc.name, act, tc.a)
		}
	}
}

func TestParsed(t *testing.T) {
	if a, err := Parsed(ownAction("x"), nil); err != nil || a != ownAction("x") {
		t.Errorf("a parsed action: %v, %v", a, err)
	}
	if a, err := Parsed(ownAction(""), Errorf(CodeUnknownAction)); a != nil || Code(err) != CodeUnknownAction {
		t.Errorf("a failed parse: %#v, %v", a, err)
	}
}
