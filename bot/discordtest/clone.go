package discordtest

import "slices"

// Typed deep copies of what the fake hands out (Message, Response, Modal).
//
// They give what a JSON round trip (cloneJSON) gave, field for field, at a
// fraction of its cost: every pointer and slice is fresh, and a slice field
// tagged omitempty comes back nil when it was empty, as it would after
// marshaling and unmarshaling. Each copy starts from a shallow copy of the
// value, so a new scalar field is copied without changes here; a new pointer
// or slice field must be added to its clone, or TestCloneSharesNothing
// (clone_test.go) fails.
//
// The fake stores a new *Message whenever a message changes (edit,
// executeWebhook) and never writes to a stored one, so inside the fake a
// stored message may be read, and shared, without a copy; copies are made
// where a message leaves the fake's lock for a caller (Message, Messages,
// Original, Response...), which may change what it got.

// clone returns a deep copy of m. Attachments are copied one level deep:
// their Data is shared, as it always was (the fake never writes to it).
func (m *Message) clone() *Message {
	c := *m
	c.Embeds = cloneAll(m.Embeds, (*Embed).clone)
	c.Components = cloneAll(m.Components, (*Component).clone)
	c.Attachments = slices.Clone(m.Attachments)
	return &c
}

// cloneAll copies a slice whose field has no omitempty (a message's
// embeds, a message's or a modal's components) element by element: nil
// stays nil, empty stays empty.
func cloneAll[T any](xs []T, clone func(*T) T) []T {
	if xs == nil {
		return nil
	}
	out := make([]T, len(xs))
	for i := range xs {
		out[i] = clone(&xs[i])
	}
	return out
}

func (e *Embed) clone() Embed {
	c := *e
	c.Footer = clonePtr(e.Footer)
	c.Image = clonePtr(e.Image)
	c.Thumbnail = clonePtr(e.Thumbnail)
	c.Author = clonePtr(e.Author)
	c.Fields = cloneOmitEmpty(e.Fields)
	return c
}

func (x *Component) clone() Component {
	c := *x
	c.Emoji = clonePtr(x.Emoji)
	c.MinValues = clonePtr(x.MinValues)
	c.MaxValues = clonePtr(x.MaxValues)
	c.Required = clonePtr(x.Required)
	c.MinLength = clonePtr(x.MinLength)
	c.MaxLength = clonePtr(x.MaxLength)
	c.Options = nil
	if len(x.Options) > 0 {
		c.Options = make([]SelectOption, len(x.Options))
		for i, o := range x.Options {
			o.Emoji = clonePtr(o.Emoji)
			c.Options[i] = o
		}
	}
	c.Components = nil // omitempty
	if len(x.Components) > 0 {
		c.Components = cloneAll(x.Components, (*Component).clone)
	}
	if x.Accessory != nil {
		a := x.Accessory.clone()
		c.Accessory = &a
	}
	return c
}

func (m *Modal) clone() *Modal {
	c := *m
	c.Components = cloneAll(m.Components, (*Component).clone)
	return &c
}

// clonePtr copies what p points to (a value without pointers of its own).
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

// cloneOmitEmpty copies a slice of values without pointers of their own,
// whose field is tagged omitempty: empty comes back nil.
func cloneOmitEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}
