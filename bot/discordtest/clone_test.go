package discordtest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// jsonCloneMessage is how Message.clone used to copy a message: a JSON round
// trip of its embeds and components. The typed clone must give the same.
func jsonCloneMessage(m *Message) *Message {
	c := *m
	c.Embeds = cloneJSON(m.Embeds)
	c.Components = cloneJSON(m.Components)
	c.Attachments = slices.Clone(m.Attachments)
	return &c
}

// filler sets every field of a value, however deep, to a non-zero value
// that differs from field to field.
type filler struct{ n int }

func (f *filler) next() int { f.n++; return f.n }

// fill sets v (settable) to a non-zero value; depth bounds the recursion
// through types that hold themselves (Component).
func (f *filler) fill(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", f.next()))
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(f.next()))
	case reflect.Uint8:
		v.SetUint(uint64(f.next() % 256))
	case reflect.Float64:
		v.SetFloat(float64(f.next()) + 0.5)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		if v.Type().Elem() == reflect.TypeFor[Component]() && depth <= 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem(), depth-1)
		v.Set(p)
	case reflect.Slice:
		if v.Type().Elem() == reflect.TypeFor[Component]() && depth <= 0 {
			return
		}
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			f.fill(s.Index(i), depth-1)
		}
		v.Set(s)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Unix(int64(1700000000+f.next()), 0)))
			return
		}
		for i := range v.NumField() {
			f.fill(v.Field(i), depth)
		}
	default:
		panic("filler: add a case for " + v.Type().String())
	}
}

// filledMessage is a message with every field set, down to components three
// levels deep (containers holding sections with accessories...).
func filledMessage(seed int) *Message {
	f := filler{n: seed}
	m := &Message{}
	f.fill(reflect.ValueOf(m).Elem(), 3)
	return m
}

// noSharing fails t if a and b (deep copies of each other) share a pointer
// or the backing array of a non-empty slice, except at the paths allowed.
func noSharing(t *testing.T, path string, a, b reflect.Value, allowed map[string]bool) {
	t.Helper()
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				t.Errorf("%s: nil in one copy only", path)
			}
			return
		}
		if a.Pointer() == b.Pointer() {
			t.Errorf("%s: the copies share a pointer", path)
			return
		}
		noSharing(t, path, a.Elem(), b.Elem(), allowed)
	case reflect.Slice:
		if a.Len() > 0 && b.Len() > 0 && a.Pointer() == b.Pointer() && !allowed[path] {
			t.Errorf("%s: the copies share a slice", path)
			return
		}
		for i := range min(a.Len(), b.Len()) {
			noSharing(t, path+"[]", a.Index(i), b.Index(i), allowed)
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() {
				noSharing(t, path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i), allowed)
			}
		}
	case reflect.Map, reflect.Interface, reflect.Chan, reflect.Func:
		t.Errorf("%s: a %s field: teach the clones and this test about it", path, a.Kind())
	}
}

// mutate changes every scalar reachable from v in place, through pointers
// and slices, without replacing them: what a careless caller might do to a
// copy it got. Paths in skip are left alone.
func mutate(path string, v reflect.Value, skip map[string]bool) {
	if skip[path] {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "!")
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(v.Int() + 1000)
	case reflect.Uint8:
		v.SetUint(v.Uint() + 1)
	case reflect.Float64:
		v.SetFloat(v.Float() + 1000)
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Pointer:
		if !v.IsNil() {
			mutate(path, v.Elem(), skip)
		}
	case reflect.Slice:
		for i := range v.Len() {
			mutate(path+"[]", v.Index(i), skip)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Hour)))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				mutate(path+"."+v.Type().Field(i).Name, v.Field(i), skip)
			}
		}
	}
}

// attachmentData is the one thing clones share on purpose: an uploaded
// file's bytes, which the fake never writes to.
var attachmentData = map[string]bool{"Message.Attachments[].Data": true}

func decodeMessage(t *testing.T, body string) *Message {
	t.Helper()
	var m Message
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	return &m
}

// cloneCases are messages as the fake stores them: decoded from payloads
// (so with empty, non-nil slices where a payload had []), and filled by
// reflection (every field set).
func cloneCases(t *testing.T) map[string]*Message {
	return map[string]*Message{
		"zero":  {},
		"empty": {Embeds: []Embed{}, Components: []Component{}, Attachments: []Attachment{}},
		"empty nested": {
			Embeds: []Embed{{Title: "t", Fields: []EmbedField{}}},
			Components: []Component{{Type: ComponentActionRow, Components: []Component{
				{Type: ComponentStringSelect, CustomID: "s", Options: []SelectOption{}},
			}}},
		},
		"legacy": decodeMessage(t, `{"content":"hi <@301>","flags":64,"tts":true,
			"embeds":[{"title":"T","description":"D","color":5,"footer":{"text":"f","icon_url":"u"},
				"image":{"url":"i"},"thumbnail":{"url":"th"},"author":{"name":"a","url":"au"},
				"fields":[{"name":"n","value":"v","inline":true},{"name":"n2","value":"v2"}]}],
			"components":[
				{"type":1,"components":[
					{"type":2,"style":1,"label":"Go","custom_id":"go","emoji":{"name":"🃏"}},
					{"type":2,"style":5,"label":"Link","url":"https://example.com","disabled":true},
					{"type":2,"style":6,"sku_id":"123"}]},
				{"type":1,"components":[{"type":3,"custom_id":"pick","placeholder":"Pick","min_values":0,"max_values":2,
					"options":[{"label":"A","value":"a","description":"first","emoji":{"id":"9","name":"x","animated":true},"default":true},
						{"label":"B","value":"b"}]}]},
				{"type":1,"components":[{"type":5,"custom_id":"who","components":[]}]}]}`),
		"v2": decodeMessage(t, `{"flags":32768,"components":[
			{"type":17,"id":1,"components":[
				{"type":10,"content":"# Table"},
				{"type":9,"components":[{"type":10,"content":"left"}],
					"accessory":{"type":2,"style":2,"custom_id":"acc","label":"Acc","emoji":{"name":"✋"}}},
				{"type":9,"components":[{"type":10,"content":"pic"}],"accessory":{"type":11}},
				{"type":12},
				{"type":14},
				{"type":1,"components":[{"type":8,"custom_id":"ch","min_values":1,"max_values":1}]}]}]}`),
		"modal": {Components: []Component{{Type: ComponentActionRow, Components: []Component{
			{Type: ComponentTextInput, CustomID: "name", Style: 1, Label: "Name", Value: "v",
				Required: new(false), MinLength: new(0), MaxLength: new(20), Placeholder: "p"},
		}}}},
		"filled": filledMessage(0),
		"filled with attachments": func() *Message {
			m := filledMessage(100)
			m.Attachments = []Attachment{{ID: "1", Filename: "a.png", Size: 3, ContentType: "image/png", URL: "u", Data: []byte{1, 2, 3}}}
			return m
		}(),
	}
}

// TestCloneMatchesJSON: the typed copies give what the JSON round trip
// gave, down to nil and empty slices.
func TestCloneMatchesJSON(t *testing.T) {
	for name, m := range cloneCases(t) {
		t.Run(name, func(t *testing.T) {
			if got, want := m.clone(), jsonCloneMessage(m); !reflect.DeepEqual(got, want) {
				gj, _ := json.Marshal(got)
				wj, _ := json.Marshal(want)
				t.Errorf("typed clone differs from the JSON clone:\n got %s\nwant %s\n got %#v\nwant %#v", gj, wj, got, want)
			}
			modal := &Modal{CustomID: "m", Title: "T", Components: m.Components}
			if got, want := modal.clone(), new(cloneJSON(*modal)); !reflect.DeepEqual(got, want) {
				t.Errorf("modal: typed clone %#v, JSON clone %#v", got, want)
			}
			r := Response{Type: 4, Message: m, Modal: modal, Body: json.RawMessage(`{"type":4}`),
				Choices: []CommandChoice{{Name: "a", Value: "a"}}}
			got := cloneResponse(r)
			if !reflect.DeepEqual(got.Message, jsonCloneMessage(m)) || !reflect.DeepEqual(got.Modal, new(cloneJSON(*modal))) {
				t.Errorf("cloneResponse differs from the JSON clones")
			}
		})
	}
}

// TestCloneSharesNothing: a copy shares no pointer or slice with its
// original (but the attachments' bytes), so a caller changing what it got
// cannot change the fake's state. With every field filled by reflection, a
// pointer or slice field added to Message, Embed, Component or what they
// hold fails here until its clone copies it.
func TestCloneSharesNothing(t *testing.T) {
	for name, m := range cloneCases(t) {
		t.Run(name, func(t *testing.T) {
			c := m.clone()
			noSharing(t, "Message", reflect.ValueOf(m), reflect.ValueOf(c), attachmentData)

			modal := &Modal{CustomID: "m", Title: "T", Components: m.Components}
			noSharing(t, "Modal", reflect.ValueOf(modal), reflect.ValueOf(modal.clone()), nil)

			r := Response{Type: 4, Message: m, Modal: modal, Body: json.RawMessage(`{"type":4}`),
				Choices: []CommandChoice{{Name: "a", Value: "a"}}}
			rc := cloneResponse(r)
			if &r.Body[0] == &rc.Body[0] || &r.Choices[0] == &rc.Choices[0] || r.Message == rc.Message || r.Modal == rc.Modal {
				t.Errorf("cloneResponse shares with the original")
			}
		})
	}
}

// TestCloneMutation: changing every field of a copy in place leaves the
// original as it was.
func TestCloneMutation(t *testing.T) {
	for name, m := range cloneCases(t) {
		t.Run(name, func(t *testing.T) {
			// A copy taken now stands for the original as it was (clone
			// is deterministic; TestCloneMatchesJSON checks what it gives).
			before := m.clone()
			c := m.clone()
			mutate("Message", reflect.ValueOf(c), attachmentData)
			if !reflect.DeepEqual(m.clone(), before) {
				t.Errorf("changing the copy changed the original")
			}
			if len(m.Components) > 0 && reflect.DeepEqual(c, before) {
				t.Errorf("mutate changed nothing")
			}
		})
	}
}

// TestFillerReachesEveryField keeps the reflection tests honest: the
// filled message has no zero field left, down to the deepest component.
func TestFillerReachesEveryField(t *testing.T) {
	var zero []string
	var walk func(path string, v reflect.Value, depth int)
	walk = func(path string, v reflect.Value, depth int) {
		if v.IsZero() {
			zero = append(zero, path)
			return
		}
		switch v.Kind() {
		case reflect.Pointer:
			walk(path, v.Elem(), depth)
		case reflect.Slice:
			for i := range v.Len() {
				walk(path+"[]", v.Index(i), depth)
			}
		case reflect.Struct:
			if v.Type() == reflect.TypeFor[time.Time]() {
				return
			}
			for i := range v.NumField() {
				walk(path+"."+v.Type().Field(i).Name, v.Field(i), depth)
			}
		}
	}
	walk("Message", reflect.ValueOf(filledMessage(0)), 0)
	var unexpected []string
	for _, p := range zero {
		// The deepest components have no children: the filler stops there.
		if !strings.HasSuffix(p, ".Components") && !strings.HasSuffix(p, ".Accessory") {
			unexpected = append(unexpected, p)
		}
	}
	if len(unexpected) > 0 {
		t.Errorf("fields the filler left zero: %v", unexpected)
	}
}

func BenchmarkMessageClone(b *testing.B) {
	m := filledMessage(0)
	b.Run("typed", func(b *testing.B) {
		for b.Loop() {
			_ = m.clone()
		}
	})
	b.Run("json", func(b *testing.B) {
		for b.Loop() {
			_ = jsonCloneMessage(m)
		}
	})
}
