package discordtest

// Text checks. Discord accepts a message whose text the bot cut to fit a
// limit, whose buttons read the same, or that pings people the bot never
// meant to ping; players suffer it. The fake looks at the text of every
// message payload it accepts (channel messages and their edits, interaction
// responses of type 4 and 7, follow-ups and webhook edits) and records
// what it finds, in three kinds:
//
//   - cut: a text that ends in "…" (or "...") with a length at its limit or
//     one below it (content 2000, the text displays of a Components V2
//     message 4000 in all, a button label 80, a select option's label and
//     description 100, a placeholder 150, a media or attachment description
//     1024, the embed limits), or that holds a mention, channel link or
//     timestamp cut before its closing ">" ("<@30…").
//   - duplicate: two enabled buttons or selects of one message that show
//     the same text (emoji and label, or placeholder), or two options of one
//     select that show the same emoji, label and description.
//   - mention: "@everyone" or "@here" in the content or a text display,
//     whatever allowed_mentions says; or a user or role mention there, in a
//     message that is not ephemeral, sent without allowed_mentions (Discord
//     then pings every mention it parses).
//
// TextViolations lists them. Each one also fails the test through its
// Errorf (strict text checks, the default); a Server made WithLenientText
// only records them, for tests of the checks themselves and for load runs.
// The request itself is answered as Discord would answer it.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Kinds of text violations: each string TextViolations returns starts with
// one of them and ": ".
const (
	TextCut       = "cut"
	TextDuplicate = "duplicate"
	TextMention   = "mention"
)

// Limits of text fields the checks use besides those of validate.go.
const (
	maxMediaDescription = 1024
	maxEmbedTextField   = 256 // title, field name, author name
)

// WithStrictText makes every text violation (see TextViolations) fail the
// test. It is the default; the option says so where it matters.
func WithStrictText() Option { return func(cfg *config) { cfg.lenientText = false } }

// WithLenientText only records text violations (TextViolations): tests of
// the checks themselves, load runs that report them.
func WithLenientText() Option { return func(cfg *config) { cfg.lenientText = true } }

// StrictText makes every later text violation fail the test, through the
// Errorf of the TB the Server was created with (a TB without Errorf gets a
// Logf line instead).
func (s *Server) StrictText() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.strictText = true
}

// TextViolations returns the text violations found so far in what the bot
// sent, oldest first, strict or not. Each is "kind: where: what", kind
// being TextCut, TextDuplicate or TextMention.
func (s *Server) TextViolations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.textViolations)
}

// maxTextViolations bounds what a long run keeps.
const maxTextViolations = 10000

// reportText fails the test with the violations of one request when the
// checks are strict. s.mu is not held.
func (s *Server) reportText(vs []string) {
	if len(vs) == 0 {
		return
	}
	s.mu.Lock()
	strict := s.strictText
	s.mu.Unlock()
	if !strict {
		return
	}
	e, ok := s.t.(interface {
		Errorf(format string, args ...any)
	})
	for _, v := range vs {
		if ok {
			e.Errorf("discordtest: text: %s", v)
		} else {
			s.t.Logf("discordtest: text: %s", v)
		}
	}
}

// textPayload is what the checks read of a message payload.
type textPayload struct {
	Content         *string         `json:"content"`
	Flags           *int            `json:"flags"`
	Embeds          []Embed         `json:"embeds"`
	Components      []textComponent `json:"components"`
	AllowedMentions json.RawMessage `json:"allowed_mentions"`
	Attachments     []struct {
		Filename    string `json:"filename"`
		Description string `json:"description"`
	} `json:"attachments"`
}

// textComponent is a component as the checks read it: Component plus the
// media descriptions of thumbnails and galleries.
type textComponent struct {
	Type        int             `json:"type"`
	CustomID    string          `json:"custom_id"`
	Style       int             `json:"style"`
	Label       string          `json:"label"`
	Emoji       *Emoji          `json:"emoji"`
	URL         string          `json:"url"`
	Disabled    bool            `json:"disabled"`
	Placeholder string          `json:"placeholder"`
	Options     []SelectOption  `json:"options"`
	Components  []textComponent `json:"components"`
	Accessory   *textComponent  `json:"accessory"`
	Content     string          `json:"content"`
	Description string          `json:"description"`
	Items       []struct {
		Description string `json:"description"`
	} `json:"items"`
}

func walkText(cs []textComponent, fn func(*textComponent)) {
	for i := range cs {
		c := &cs[i]
		fn(c)
		walkText(c.Components, fn)
		if c.Accessory != nil {
			walkText([]textComponent{*c.Accessory}, fn)
		}
	}
}

// checkText checks the text of an accepted message payload, records what
// it finds and returns it; s.mu is held.
func (s *Server) checkText(call *Call, rq *request, rep reply, msgID string) []string {
	if rep.err != nil || rep.status < 200 || rep.status > 299 || rq.body == nil {
		return nil
	}
	var p *textPayload
	where := call.Method + " " + call.Path
	switch call.Route {
	case "POST /channels/{channel.id}/messages", "PATCH /channels/{channel.id}/messages/{message.id}":
	case "POST /interactions/{interaction.id}/{interaction.token}/callback":
		// The payload is the callback's data, read in the same pass: a
		// callback whose body or data does not fit is not checked, and
		// one without data (or with null) has no text.
		var cb struct {
			Type int          `json:"type"`
			Data *textPayload `json:"data"`
		}
		if json.Unmarshal(rq.body, &cb) != nil || (cb.Type != CallbackChannelMessage && cb.Type != CallbackUpdateMessage) {
			return nil
		}
		p = cb.Data
		if p == nil {
			p = &textPayload{}
		}
		where = fmt.Sprintf("callback type %d", cb.Type)
	case "POST /webhooks/{webhook.id}/{webhook.token}":
		where = "follow-up"
	case "PATCH /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}":
		where = "edit of " + rq.params["message.id"]
	default:
		return nil
	}
	if in := rq.in; in != nil {
		kind := map[int]string{2: "/", 3: "component ", 5: "modal "}[in.kind]
		where += fmt.Sprintf(" to %s%q", kind, in.name)
	}
	if msgID != "" {
		where += " (message " + msgID + ")"
	}
	if p == nil {
		p = &textPayload{}
		if json.Unmarshal(rq.body, p) != nil {
			return nil
		}
	}
	ephemeral := p.Flags != nil && *p.Flags&FlagEphemeral != 0
	if m := s.messages[msgID]; m != nil {
		ephemeral = m.Ephemeral()
	}
	vs := textViolations(where, p, ephemeral)
	if room := maxTextViolations - len(s.textViolations); room > 0 {
		s.textViolations = append(s.textViolations, vs[:min(len(vs), room)]...)
	}
	return vs
}

// textViolations checks one message payload. where names the request.
func textViolations(where string, p *textPayload, ephemeral bool) []string {
	var out []string
	add := func(kind, format string, args ...any) {
		out = append(out, kind+": "+where+": "+fmt.Sprintf(format, args...))
	}
	cut := func(field, text string, limit int) {
		n := length(text)
		if (strings.HasSuffix(text, "…") || strings.HasSuffix(text, "...")) && n >= limit-1 && n <= limit {
			add(TextCut, "%s of %d characters (limit %d) ends in an ellipsis: %q", field, n, limit, tail(text))
		}
		if frag := cutMention(text); frag != "" {
			add(TextCut, "%s holds a cut mention %q", field, frag)
		}
	}

	// Cut texts.
	if p.Content != nil {
		cut("content", *p.Content, maxContent)
	}
	for i, e := range p.Embeds {
		ep := fmt.Sprintf("embeds[%d]", i)
		cut(ep+".title", e.Title, maxEmbedTextField)
		cut(ep+".description", e.Description, maxEmbedDescription)
		for j, f := range e.Fields {
			cut(fmt.Sprintf("%s.fields[%d].name", ep, j), f.Name, maxEmbedFieldName)
			cut(fmt.Sprintf("%s.fields[%d].value", ep, j), f.Value, maxEmbedFieldValue)
		}
		if e.Footer != nil {
			cut(ep+".footer", e.Footer.Text, maxEmbedFooter)
		}
		if e.Author != nil {
			cut(ep+".author", e.Author.Name, maxEmbedAuthor)
		}
	}
	for i, a := range p.Attachments {
		cut(fmt.Sprintf("attachments[%d] (%s).description", i, a.Filename), a.Description, maxMediaDescription)
	}
	v2Total := 0
	walkText(p.Components, func(c *textComponent) {
		if c.Type == ComponentTextDisplay {
			v2Total += length(c.Content)
		}
	})
	walkText(p.Components, func(c *textComponent) {
		switch {
		case c.Type == ComponentTextDisplay:
			// Text displays share one budget: a display cut to make the
			// total fit ends in an ellipsis when the total is at it.
			if hasEllipsis(c.Content) && v2Total >= maxV2Text-1 && v2Total <= maxV2Text {
				add(TextCut, "text display ending in an ellipsis, with %d characters of text displays in all (limit %d): %q",
					v2Total, maxV2Text, tail(c.Content))
			}
			if frag := cutMention(c.Content); frag != "" {
				add(TextCut, "text display holds a cut mention %q", frag)
			}
		case c.Type == ComponentButton:
			cut(fmt.Sprintf("button %q label", c.CustomID+c.URL), c.Label, maxButtonLabel)
		case c.Type == ComponentThumbnail:
			cut("thumbnail description", c.Description, maxMediaDescription)
		case c.Type == ComponentMediaGallery:
			for i, it := range c.Items {
				cut(fmt.Sprintf("media gallery item %d description", i), it.Description, maxMediaDescription)
			}
		case c.Type == ComponentStringSelect || (c.Type >= ComponentUserSelect && c.Type <= ComponentChannelSelect):
			cut(fmt.Sprintf("select %q placeholder", c.CustomID), c.Placeholder, maxPlaceholder)
			for _, o := range c.Options {
				cut(fmt.Sprintf("select %q option %q label", c.CustomID, o.Value), o.Label, maxOptionText)
				cut(fmt.Sprintf("select %q option %q description", c.CustomID, o.Value), o.Description, maxOptionText)
			}
		}
	})

	// Duplicate faces.
	type control struct{ what, id string }
	faces := map[string][]control{}
	var order []string
	walkText(p.Components, func(c *textComponent) {
		var face string
		var ctl control
		switch {
		case c.Disabled:
			return
		case c.Type == ComponentButton:
			face = strings.TrimSpace(emojiFace(c.Emoji) + " " + c.Label)
			ctl = control{"button", c.CustomID + c.URL}
		case c.Type == ComponentStringSelect || (c.Type >= ComponentUserSelect && c.Type <= ComponentChannelSelect):
			face = c.Placeholder
			ctl = control{"select", c.CustomID}
			opts := map[string][]string{}
			var optOrder []string
			for _, o := range c.Options {
				f := strings.TrimSpace(emojiFace(o.Emoji) + " " + o.Label)
				if o.Description != "" {
					f += " — " + o.Description
				}
				if opts[f] == nil {
					optOrder = append(optOrder, f)
				}
				opts[f] = append(opts[f], o.Value)
			}
			for _, f := range optOrder {
				if vals := opts[f]; len(vals) > 1 {
					add(TextDuplicate, "select %q has %d options showing %q (values %q)", c.CustomID, len(vals), f, vals)
				}
			}
		}
		if face == "" {
			return
		}
		if faces[face] == nil {
			order = append(order, face)
		}
		faces[face] = append(faces[face], ctl)
	})
	for _, f := range order {
		if ctls := faces[f]; len(ctls) > 1 {
			var ids []string
			for _, c := range ctls {
				ids = append(ids, c.what+" "+c.id)
			}
			add(TextDuplicate, "%d controls show %q: %s", len(ctls), f, strings.Join(ids, ", "))
		}
	}

	// Mentions that ping.
	var texts []string
	if p.Content != nil {
		texts = append(texts, *p.Content)
	}
	walkText(p.Components, func(c *textComponent) {
		if c.Type == ComponentTextDisplay {
			texts = append(texts, c.Content)
		}
	})
	noAllowed := len(p.AllowedMentions) == 0 || string(p.AllowedMentions) == "null"
	for _, t := range texts {
		for _, m := range everyoneRE.FindAllStringIndex(t, -1) {
			how := "pings everyone (no allowed_mentions)"
			if !noAllowed {
				how = "shows as a mass mention (allowed_mentions decides whether it pings)"
			}
			add(TextMention, "%s %s: %q", t[m[0]:m[1]], how, around(t, m[0], m[1]))
		}
		if !noAllowed || ephemeral {
			continue
		}
		for _, m := range pingRE.FindAllStringIndex(t, -1) {
			add(TextMention, "%s pings without allowed_mentions (Discord then parses every mention): %q",
				t[m[0]:m[1]], around(t, m[0], m[1]))
		}
	}
	return out
}

var (
	everyoneRE = regexp.MustCompile(`@(everyone|here)\b`)
	pingRE     = regexp.MustCompile(`<@[!&]?[0-9]+>`)
	// A mention, channel link or timestamp, complete.
	markupRE = regexp.MustCompile(`^(<@[!&]?[0-9]+>|<#[0-9]+>|<t:-?[0-9]+(:[tTdDfFR])?>)`)
	// Where one starts.
	markupStartRE = regexp.MustCompile(`<(@[!&]?[0-9]|@[!&]?$|#[0-9]|#$|t:)`)
)

// cutMention returns the first mention, channel link or timestamp in s that
// lacks its end ("<@301…"), or "".
func cutMention(s string) string {
	for _, m := range markupStartRE.FindAllStringIndex(s, -1) {
		rest := s[m[0]:]
		if markupRE.MatchString(rest) {
			continue
		}
		if end := strings.IndexAny(rest[1:], " \n<>"); end >= 0 {
			rest = rest[:end+1]
		}
		return truncRunes(rest, 30)
	}
	return ""
}

func hasEllipsis(s string) bool {
	return strings.HasSuffix(s, "…") || strings.HasSuffix(s, "...")
}

func emojiFace(e *Emoji) string {
	switch {
	case e == nil:
		return ""
	case e.ID != "":
		return ":" + e.Name + ":"
	default:
		return e.Name
	}
}

// tail is the end of a long text, for a report.
func tail(s string) string {
	r := []rune(s)
	if len(r) <= 60 {
		return s
	}
	return "…" + string(r[len(r)-59:])
}

// around is the text around s[i:j], for a report.
func around(s string, i, j int) string {
	from, to := max(0, i-30), min(len(s), j+30)
	for from > 0 && !isRuneStart(s[from]) {
		from--
	}
	for to < len(s) && !isRuneStart(s[to]) {
		to++
	}
	return s[from:to]
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

func truncRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
