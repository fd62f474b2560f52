package princesses

import (
	"testing"

	"github.com/stolik-bot/stolik/engine"
)

// Options a table may be opened with: a fixed list takes 1 to 5 round cards
// of the chosen edition; anything else is a bad option. A card may repeat
// (rounds=a,a,a: several rounds of the base rules), which scenarios use.
func TestRoundsOption(t *testing.T) {
	cases := []struct {
		opts engine.Options
		ok   bool
	}{
		{engine.Options{}, true},
		{engine.Options{"rounds": "3"}, true},
		{engine.Options{"rounds": "a,f,i,o,z"}, true},
		{engine.Options{"rounds": "masquerade"}, true},
		{engine.Options{"edition": "classic", "rounds": "invitation,masquerade"}, true},
		{engine.Options{"rounds": "random3"}, true},
		{engine.Options{"rounds": "a,a,a"}, true},
		{engine.Options{"rounds": "a,b,c,d,e,f"}, false},
		{engine.Options{"rounds": "invitation"}, false},
		{engine.Options{"rounds": "nope"}, false},
		{engine.Options{"rounds": ""}, true},
		{engine.Options{"edition": "gold"}, false},
	}
	for _, tc := range cases {
		_, err := Game{}.New(tc.opts, 4, engine.NewRand(1, 0))
		if (err == nil) != tc.ok {
			t.Errorf("%v: error %v, want ok=%v", tc.opts, err, tc.ok)
		}
		if err != nil && engine.Code(err) != engine.CodeBadOption {
			t.Errorf("%v: code %q, want %q", tc.opts, engine.Code(err), engine.CodeBadOption)
		}
	}
}
