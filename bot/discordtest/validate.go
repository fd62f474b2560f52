package discordtest

import (
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Discord JSON error codes used by the fake
// (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
const (
	codeGeneral              = 0
	codeUnknownApplication   = 10002
	codeUnknownChannel       = 10003
	codeUnknownGuild         = 10004
	codeUnknownMember        = 10007
	codeUnknownMessage       = 10008
	codeUnknownUser          = 10013
	codeUnknownWebhook       = 10015
	codeUnknownInteraction   = 10062
	codeUnknownCommand       = 10063
	codeMissingAccess        = 50001
	codeMissingPermissions   = 50013
	codeThreadArchived       = 50083
	codeEmptyMessage         = 50006
	codeCannotDM             = 50007
	codeWrongChannelType     = 50024
	codeInvalidWebhookToken  = 50027
	codeInvalidRecipients    = 50033
	codeInvalidFormBody      = 50035
	codeInvalidJSON          = 50109
	codeAlreadyAcknowledged  = 40060
	codeThreadAlreadyCreated = 160004
)

func apiErr(status, code int, msg string) *APIError {
	return &APIError{Status: status, Code: code, Message: msg}
}

func errNotFound() *APIError { return apiErr(http.StatusNotFound, codeGeneral, "404: Not Found") }
func errUnknownInteraction() *APIError {
	return apiErr(http.StatusNotFound, codeUnknownInteraction, "Unknown interaction")
}
func errUnknownWebhook() *APIError {
	return apiErr(http.StatusNotFound, codeUnknownWebhook, "Unknown Webhook")
}
func errUnknownMessage() *APIError {
	return apiErr(http.StatusNotFound, codeUnknownMessage, "Unknown Message")
}
func errUnknownChannel() *APIError {
	return apiErr(http.StatusNotFound, codeUnknownChannel, "Unknown Channel")
}
func errEmptyMessage() *APIError {
	return apiErr(http.StatusBadRequest, codeEmptyMessage, "Cannot send an empty message")
}

// formErrors collects the field errors of a 50035 Invalid Form Body answer.
type formErrors struct {
	list []FieldError
	keys [][]string
}

// at builds a path: at(p, "components", 0) → p + ["components", "0"].
func at(p []string, keys ...any) []string {
	out := slices.Clip(p)
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			out = append(out, k)
		case int:
			out = append(out, strconv.Itoa(k))
		default:
			panic(fmt.Sprintf("discordtest: bad path key %v", k))
		}
	}
	return out
}

func (f *formErrors) add(path []string, code, msg string) {
	f.list = append(f.list, FieldError{Path: strings.Join(path, "."), Code: code, Message: msg})
	f.keys = append(f.keys, slices.Clone(path))
}

func (f *formErrors) empty() bool { return len(f.list) == 0 }

// apiError renders the collected errors the way Discord nests them:
// {"data": {"content": {"_errors": [{"code": ..., "message": ...}]}}}.
func (f *formErrors) apiError() *APIError {
	root := map[string]any{}
	for i, fe := range f.list {
		node := root
		for _, k := range f.keys[i] {
			next, ok := node[k].(map[string]any)
			if !ok {
				next = map[string]any{}
				node[k] = next
			}
			node = next
		}
		list, _ := node["_errors"].([]any)
		node["_errors"] = append(list, map[string]any{"code": fe.Code, "message": fe.Message})
	}
	return &APIError{
		Status:  http.StatusBadRequest,
		Code:    codeInvalidFormBody,
		Message: "Invalid Form Body",
		Errors:  root,
		Fields:  slices.Clone(f.list),
	}
}

func length(s string) int { return utf8.RuneCountInString(s) }

// maxLen checks len(s) <= max.
func (f *formErrors) maxLen(p []string, s string, max int) {
	if length(s) > max {
		f.add(p, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", max))
	}
}

// between checks min <= len(s) <= max; an empty s is reported as missing.
func (f *formErrors) between(p []string, s string, min, max int) {
	switch n := length(s); {
	case n == 0 && min > 0:
		f.add(p, "BASE_TYPE_REQUIRED", "This field is required")
	case n < min || n > max:
		f.add(p, "BASE_TYPE_BAD_LENGTH", fmt.Sprintf("Must be between %d and %d in length.", min, max))
	}
}

func (f *formErrors) maxItems(p []string, n, max int) bool {
	if n > max {
		f.add(p, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", max))
		return false
	}
	return true
}

// Message limits (https://discord.com/developers/docs/resources/message).
const (
	maxContent          = 2000
	maxEmbeds           = 10
	maxEmbedTitle       = 256
	maxEmbedDescription = 4096
	maxEmbedFields      = 25
	maxEmbedFieldName   = 256
	maxEmbedFieldValue  = 1024
	maxEmbedFooter      = 2048
	maxEmbedAuthor      = 256
	maxEmbedTotal       = 6000
	maxActionRows       = 5
	maxRowButtons       = 5
	maxSelectOptions    = 25
	maxCustomID         = 100
	maxButtonLabel      = 80
	maxOptionText       = 100
	maxPlaceholder      = 150
	maxV2Components     = 40
	maxV2Text           = 4000
)

// Flags each kind of message payload may carry.
const (
	flagsChannelMessage = FlagSuppressEmbeds | FlagSuppressNotification | FlagComponentsV2
	flagsInteraction    = FlagSuppressEmbeds | FlagEphemeral | FlagSuppressNotification | FlagComponentsV2
	flagsDeferred       = FlagEphemeral
	flagsEdit           = FlagSuppressEmbeds | FlagComponentsV2
)

// validateMessage checks m against Discord's message limits. p is the path
// of the message object in the request (nil at the top, ["data"] in an
// interaction callback).
func validateMessage(f *formErrors, p []string, m *Message, allowedFlags int) {
	if bad := m.Flags &^ allowedFlags; bad != 0 {
		msg := fmt.Sprintf("Invalid flags: %d cannot be set here.", bad)
		if bad&FlagEphemeral != 0 {
			msg = "Ephemeral (64) can only be set on interaction responses and follow-ups."
		}
		f.add(at(p, "flags"), "MESSAGE_FLAGS_INVALID", msg)
	}
	v2 := m.Flags&FlagComponentsV2 != 0
	if v2 {
		if m.Content != "" {
			f.add(at(p, "content"), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
				"The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
		}
		if len(m.Embeds) > 0 {
			f.add(at(p, "embeds"), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
				"The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
		}
	}
	f.maxLen(at(p, "content"), m.Content, maxContent)
	validateEmbeds(f, at(p, "embeds"), m.Embeds)
	if v2 {
		validateComponentsV2(f, at(p, "components"), m.Components)
	} else {
		validateComponents(f, at(p, "components"), m.Components)
	}
}

// messageEmpty reports whether m would be "an empty message" (50006).
func messageEmpty(m *Message) bool {
	return strings.TrimSpace(m.Content) == "" && len(m.Embeds) == 0 && len(m.Components) == 0 && len(m.Attachments) == 0
}

func validateEmbeds(f *formErrors, p []string, embeds []Embed) {
	if !f.maxItems(p, len(embeds), maxEmbeds) {
		return
	}
	total := 0
	for i, e := range embeds {
		ep := at(p, i)
		f.maxLen(at(ep, "title"), e.Title, maxEmbedTitle)
		f.maxLen(at(ep, "description"), e.Description, maxEmbedDescription)
		total += length(e.Title) + length(e.Description)
		if f.maxItems(at(ep, "fields"), len(e.Fields), maxEmbedFields) {
			for j, fl := range e.Fields {
				f.between(at(ep, "fields", j, "name"), fl.Name, 1, maxEmbedFieldName)
				f.between(at(ep, "fields", j, "value"), fl.Value, 1, maxEmbedFieldValue)
				total += length(fl.Name) + length(fl.Value)
			}
		}
		if e.Footer != nil {
			f.maxLen(at(ep, "footer", "text"), e.Footer.Text, maxEmbedFooter)
			total += length(e.Footer.Text)
		}
		if e.Author != nil {
			f.maxLen(at(ep, "author", "name"), e.Author.Name, maxEmbedAuthor)
			total += length(e.Author.Name)
		}
	}
	if total > maxEmbedTotal {
		f.add(p, "MAX_EMBED_SIZE_EXCEEDED", fmt.Sprintf("Embed size exceeds maximum size of %d", maxEmbedTotal))
	}
}

// validateComponents checks legacy (non-V2) message components: up to 5
// action rows, each with up to 5 buttons or a single select.
func validateComponents(f *formErrors, p []string, rows []Component) {
	if !f.maxItems(p, len(rows), maxActionRows) {
		return
	}
	ids := map[string]bool{}
	for i := range rows {
		rp := at(p, i)
		row := &rows[i]
		if row.Type != ComponentActionRow {
			f.add(at(rp, "type"), "UNION_TYPE_CHOICES", `Value of field "type" must be one of (1,).`)
			continue
		}
		validateRow(f, rp, row, ids)
	}
}

func validateRow(f *formErrors, rp []string, row *Component, ids map[string]bool) {
	cp := at(rp, "components")
	switch n := len(row.Components); {
	case n == 0:
		f.add(cp, "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
		return
	case n > maxRowButtons:
		f.add(cp, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", maxRowButtons))
		return
	}
	for j := range row.Components {
		c := &row.Components[j]
		p := at(cp, j)
		switch {
		case c.Type == ComponentButton:
			validateButton(f, p, c)
		case c.IsSelect():
			if len(row.Components) > 1 {
				f.add(p, "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
			}
			validateSelect(f, p, c)
		default:
			f.add(at(p, "type"), "UNION_TYPE_CHOICES",
				`Value of field "type" must be one of (2, 3, 5, 6, 7, 8).`)
			continue
		}
		if c.CustomID != "" {
			if ids[c.CustomID] {
				f.add(at(p, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
			}
			ids[c.CustomID] = true
		}
	}
}

func validateButton(f *formErrors, p []string, b *Component) {
	f.maxLen(at(p, "label"), b.Label, maxButtonLabel)
	switch b.Style {
	case ButtonLink:
		if b.URL == "" {
			f.add(at(p, "url"), "BASE_TYPE_REQUIRED", "This field is required")
		}
		if b.CustomID != "" {
			f.add(at(p, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED", "A link button cannot have a custom_id")
		}
	case ButtonPremium:
		if b.SKUID == "" {
			f.add(at(p, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
		}
		if b.CustomID != "" || b.URL != "" || b.Label != "" || b.Emoji != nil {
			f.add(p, "BUTTON_COMPONENT_INVALID", "A premium button cannot have a custom_id, url, label or emoji")
		}
		return
	case ButtonPrimary, ButtonSecondary, ButtonSuccess, ButtonDanger:
		f.between(at(p, "custom_id"), b.CustomID, 1, maxCustomID)
		if b.URL != "" {
			f.add(at(p, "url"), "BUTTON_COMPONENT_URL_NOT_ALLOWED", "Only a link button can have a url")
		}
	default:
		f.add(at(p, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
	}
	if b.Label == "" && b.Emoji == nil {
		f.add(at(p, "label"), "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A button must have a label or an emoji")
	}
}

func validateSelect(f *formErrors, p []string, c *Component) {
	f.between(at(p, "custom_id"), c.CustomID, 1, maxCustomID)
	f.maxLen(at(p, "placeholder"), c.Placeholder, maxPlaceholder)
	minV, maxV := 1, 1
	if c.MinValues != nil {
		minV = *c.MinValues
		if minV < 0 || minV > maxSelectOptions {
			f.add(at(p, "min_values"), "BASE_TYPE_BAD_INT", "Must be between 0 and 25.")
		}
	}
	if c.MaxValues != nil {
		maxV = *c.MaxValues
		if maxV < 1 || maxV > maxSelectOptions {
			f.add(at(p, "max_values"), "BASE_TYPE_BAD_INT", "Must be between 1 and 25.")
		}
	}
	if minV > maxV {
		f.add(at(p, "min_values"), "SELECT_COMPONENT_MIN_GREATER_THAN_MAX", "min_values cannot be greater than max_values")
	}
	if c.Type != ComponentStringSelect {
		if len(c.Options) > 0 {
			f.add(at(p, "options"), "SELECT_COMPONENT_OPTIONS_NOT_ALLOWED", "Only a string select has options")
		}
		return
	}
	op := at(p, "options")
	switch n := len(c.Options); {
	case n == 0:
		f.add(op, "BASE_TYPE_REQUIRED", "This field is required")
		return
	case n > maxSelectOptions:
		f.add(op, "BASE_TYPE_BAD_LENGTH", fmt.Sprintf("Must be between 1 and %d in length.", maxSelectOptions))
		return
	}
	if c.MaxValues != nil && maxV > len(c.Options) {
		f.add(at(p, "max_values"), "SELECT_COMPONENT_MAX_VALUES_TOO_HIGH",
			"max_values cannot be greater than the number of options")
	}
	values := map[string]bool{}
	defaults := 0
	for i, o := range c.Options {
		f.between(at(op, i, "label"), o.Label, 1, maxOptionText)
		f.between(at(op, i, "value"), o.Value, 1, maxOptionText)
		f.maxLen(at(op, i, "description"), o.Description, maxOptionText)
		if values[o.Value] {
			f.add(at(op, i, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Select option values must be unique")
		}
		values[o.Value] = true
		if o.Default {
			defaults++
		}
	}
	if defaults > maxV {
		f.add(op, "SELECT_COMPONENT_TOO_MANY_DEFAULTS", "More options are marked default than max_values allows")
	}
}

// validateComponentsV2 checks an IS_COMPONENTS_V2 message: layout components
// at the top level, at most 40 components in all, action rows as above.
func validateComponentsV2(f *formErrors, p []string, cs []Component) {
	total, text := 0, 0
	walkComponents(cs, func(c *Component) bool {
		total++
		text += length(c.Content)
		return true
	})
	if total > maxV2Components {
		f.add(p, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", maxV2Components))
	}
	if text > maxV2Text {
		f.add(p, "COMPONENT_TEXT_TOO_LONG", fmt.Sprintf("Text displays must hold %d or fewer characters in all.", maxV2Text))
	}
	ids := map[string]bool{}
	var check func(p []string, cs []Component, allowed []int)
	check = func(p []string, cs []Component, allowed []int) {
		for i := range cs {
			c := &cs[i]
			cp := at(p, i)
			if !slices.Contains(allowed, c.Type) {
				f.add(at(cp, "type"), "UNION_TYPE_CHOICES", fmt.Sprintf(`Value of field "type" must be one of %v.`, allowed))
				continue
			}
			switch c.Type {
			case ComponentActionRow:
				validateRow(f, cp, c, ids)
			case ComponentTextDisplay:
				if c.Content == "" {
					f.add(at(cp, "content"), "BASE_TYPE_REQUIRED", "This field is required")
				}
			case ComponentSection:
				if n := len(c.Components); n < 1 || n > 3 {
					f.add(at(cp, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 3 in length.")
				}
				check(at(cp, "components"), c.Components, []int{ComponentTextDisplay})
				if c.Accessory == nil {
					f.add(at(cp, "accessory"), "BASE_TYPE_REQUIRED", "This field is required")
				} else if c.Accessory.Type == ComponentButton {
					validateButton(f, at(cp, "accessory"), c.Accessory)
					if id := c.Accessory.CustomID; id != "" {
						if ids[id] {
							f.add(at(cp, "accessory", "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
						}
						ids[id] = true
					}
				} else if c.Accessory.Type != ComponentThumbnail {
					f.add(at(cp, "accessory", "type"), "UNION_TYPE_CHOICES", `Value of field "type" must be one of (2, 11).`)
				}
			case ComponentContainer:
				check(at(cp, "components"), c.Components, []int{
					ComponentActionRow, ComponentTextDisplay, ComponentSection, ComponentMediaGallery,
					ComponentSeparator, ComponentFile,
				})
			}
		}
	}
	check(p, cs, []int{
		ComponentActionRow, ComponentSection, ComponentTextDisplay, ComponentMediaGallery,
		ComponentFile, ComponentSeparator, ComponentContainer,
	})
}

// validateModal checks a type 9 callback's data.
func validateModal(f *formErrors, p []string, m *Modal) {
	f.between(at(p, "custom_id"), m.CustomID, 1, maxCustomID)
	f.between(at(p, "title"), m.Title, 1, 45)
	cp := at(p, "components")
	if n := len(m.Components); n < 1 || n > 5 {
		f.add(cp, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
		return
	}
	ids := map[string]bool{}
	for i := range m.Components {
		row := &m.Components[i]
		rp := at(cp, i)
		if row.Type != ComponentActionRow {
			f.add(at(rp, "type"), "UNION_TYPE_CHOICES", `Value of field "type" must be one of (1,).`)
			continue
		}
		if len(row.Components) != 1 || row.Components[0].Type != ComponentTextInput {
			f.add(at(rp, "components"), "MODAL_ROW_INVALID", "A modal action row holds exactly one text input")
			continue
		}
		ti := &row.Components[0]
		tp := at(rp, "components", 0)
		f.between(at(tp, "custom_id"), ti.CustomID, 1, maxCustomID)
		if ids[ti.CustomID] {
			f.add(at(tp, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
		}
		ids[ti.CustomID] = true
		f.between(at(tp, "label"), ti.Label, 1, 45)
		if ti.Style != 1 && ti.Style != 2 {
			f.add(at(tp, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
		}
		f.maxLen(at(tp, "placeholder"), ti.Placeholder, 100)
		f.maxLen(at(tp, "value"), ti.Value, 4000)
		if ti.MinLength != nil && (*ti.MinLength < 0 || *ti.MinLength > 4000) {
			f.add(at(tp, "min_length"), "BASE_TYPE_BAD_INT", "Must be between 0 and 4000.")
		}
		if ti.MaxLength != nil && (*ti.MaxLength < 1 || *ti.MaxLength > 4000) {
			f.add(at(tp, "max_length"), "BASE_TYPE_BAD_INT", "Must be between 1 and 4000.")
		}
	}
}

// Locales Discord accepts as localization keys
// (https://discord.com/developers/docs/reference#locales).
var discordLocales = map[string]bool{
	"id": true, "da": true, "de": true, "en-GB": true, "en-US": true, "es-ES": true, "es-419": true,
	"fr": true, "hr": true, "it": true, "lt": true, "hu": true, "nl": true, "no": true, "pl": true,
	"pt-BR": true, "ro": true, "fi": true, "sv-SE": true, "vi": true, "tr": true, "cs": true,
	"el": true, "bg": true, "ru": true, "uk": true, "hi": true, "th": true, "zh-CN": true,
	"ja": true, "zh-TW": true, "ko": true,
}

// commandName is the CHAT_INPUT name rule from
// https://discord.com/developers/docs/interactions/application-commands.
var commandName = regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

const (
	maxGlobalChatCommands = 100
	maxUserCommands       = 5
	maxMessageCommands    = 5
	maxCommandOptions     = 25
	maxCommandChoices     = 25
	maxCommandDescription = 100
	maxCommandChars       = 8000
)

func (f *formErrors) chatName(p []string, name string) {
	if !commandName.MatchString(name) || strings.ToLower(name) != name {
		f.add(p, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
	}
}

// validateCommands checks a bulk-overwrite payload.
func validateCommands(f *formErrors, cmds []Command) {
	counts := map[int]int{}
	seen := map[string]bool{}
	for i := range cmds {
		c := &cmds[i]
		validateCommand(f, at(nil, i), c)
		counts[c.Type]++
		key := strconv.Itoa(c.Type) + "/" + c.Name
		if seen[key] {
			f.add(at(nil, i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
		}
		seen[key] = true
	}
	if counts[1] > maxGlobalChatCommands || counts[2] > maxUserCommands || counts[3] > maxMessageCommands {
		f.add(nil, "APPLICATION_COMMANDS_TOO_MANY", "Too many application commands of one type")
	}
}

// validateCommand checks one command; c.Type 0 is normalized to 1.
func validateCommand(f *formErrors, p []string, c *Command) {
	if c.Type == 0 {
		c.Type = 1
	}
	switch c.Type {
	case 1:
		f.chatName(at(p, "name"), c.Name)
		f.between(at(p, "description"), c.Description, 1, maxCommandDescription)
	case 2, 3:
		f.between(at(p, "name"), c.Name, 1, 32)
		if c.Description != "" {
			f.add(at(p, "description"), "APPLICATION_COMMAND_DESCRIPTION_NOT_ALLOWED",
				"User and message commands cannot have a description")
		}
		if len(c.Options) > 0 {
			f.add(at(p, "options"), "APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED",
				"User and message commands cannot have options")
		}
	default:
		f.add(at(p, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")
		return
	}
	validateLocalizations(f, at(p, "name_localizations"), c.NameLocalizations, func(p []string, v string) {
		if c.Type == 1 {
			f.chatName(p, v)
		} else {
			f.between(p, v, 1, 32)
		}
	})
	validateLocalizations(f, at(p, "description_localizations"), c.DescriptionLocalizations, func(p []string, v string) {
		f.between(p, v, 1, maxCommandDescription)
	})
	validateOptions(f, at(p, "options"), c.Options, 0)
	if n := commandChars(c); n > maxCommandChars {
		f.add(p, "APPLICATION_COMMAND_TOO_LARGE", fmt.Sprintf("Command exceeds maximum size (%d)", maxCommandChars))
	}
}

func validateLocalizations(f *formErrors, p []string, m map[string]string, value func([]string, string)) {
	for _, loc := range slices.Sorted(maps.Keys(m)) {
		if !discordLocales[loc] {
			f.add(at(p, loc), "LOCALE_INVALID", fmt.Sprintf("%q is not a valid Discord locale", loc))
			continue
		}
		value(at(p, loc), m[loc])
	}
}

// validateOptions checks options at nesting depth 0 (command), 1 (inside a
// subcommand or group) or 2 (inside a subcommand of a group).
func validateOptions(f *formErrors, p []string, opts []CommandOption, depth int) {
	if !f.maxItems(p, len(opts), maxCommandOptions) {
		return
	}
	names := map[string]bool{}
	subs, plain := 0, 0
	optionalSeen := false
	for i := range opts {
		o := &opts[i]
		op := at(p, i)
		f.chatName(at(op, "name"), o.Name)
		if names[o.Name] {
			f.add(at(op, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
		}
		names[o.Name] = true
		f.between(at(op, "description"), o.Description, 1, maxCommandDescription)
		validateLocalizations(f, at(op, "name_localizations"), o.NameLocalizations, f.chatName)
		validateLocalizations(f, at(op, "description_localizations"), o.DescriptionLocalizations, func(p []string, v string) {
			f.between(p, v, 1, maxCommandDescription)
		})
		switch o.Type {
		case OptionSubCommand, OptionSubCommandGroup:
			subs++
			switch {
			case o.Type == OptionSubCommandGroup && depth > 0,
				o.Type == OptionSubCommand && depth > 1:
				f.add(at(op, "type"), "APPLICATION_COMMAND_OPTION_NESTING_INVALID", "Subcommands cannot be nested this deep")
			case o.Type == OptionSubCommandGroup:
				for j := range o.Options {
					if o.Options[j].Type != OptionSubCommand {
						f.add(at(op, "options", j, "type"), "APPLICATION_COMMAND_OPTION_NESTING_INVALID",
							"A subcommand group may hold only subcommands")
					}
				}
				validateOptions(f, at(op, "options"), o.Options, depth+1)
			default:
				validateOptions(f, at(op, "options"), o.Options, 2)
			}
			if o.Required {
				f.add(at(op, "required"), "APPLICATION_COMMAND_OPTION_REQUIRED_INVALID", "Subcommands cannot be required")
			}
			continue
		case OptionString, OptionInteger, OptionBoolean, OptionUser, OptionChannel, OptionRole,
			OptionMentionable, OptionNumber, OptionAttachment:
			plain++
		default:
			f.add(at(op, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}.")
			continue
		}
		if len(o.Options) > 0 {
			f.add(at(op, "options"), "APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED", "Only subcommands and groups have options")
		}
		if o.Required && optionalSeen {
			f.add(at(op, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
				"Required options must be placed before non-required options")
		}
		if !o.Required {
			optionalSeen = true
		}
		if o.Autocomplete && o.Type != OptionString && o.Type != OptionInteger && o.Type != OptionNumber {
			f.add(at(op, "autocomplete"), "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_INVALID",
				"Only string, integer and number options can autocomplete")
		}
		validateChoices(f, op, o)
	}
	if subs > 0 && plain > 0 {
		f.add(p, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Subcommands and groups cannot be mixed with other options")
	}
}

// validateChoice checks one choice of an option of type typ: a command's
// fixed choice or an autocomplete answer.
func validateChoice(f *formErrors, chp []string, ch CommandChoice, typ int) {
	f.between(at(chp, "name"), ch.Name, 1, 100)
	validateLocalizations(f, at(chp, "name_localizations"), ch.NameLocalizations, func(p []string, v string) {
		f.between(p, v, 1, 100)
	})
	switch v := ch.Value.(type) {
	case string:
		if typ == OptionInteger || typ == OptionNumber {
			f.add(at(chp, "value"), "BASE_TYPE_NUMBER", "Value must be a number.")
		}
		f.between(at(chp, "value"), v, 1, 100)
	case float64:
		if typ == OptionString {
			f.add(at(chp, "value"), "BASE_TYPE_STRING", "Value must be a string.")
		} else if typ == OptionInteger && v != float64(int64(v)) {
			f.add(at(chp, "value"), "NUMBER_TYPE_COERCE", "Value must be an integer.")
		}
	default:
		f.add(at(chp, "value"), "BASE_TYPE_REQUIRED", "This field is required")
	}
}

func validateChoices(f *formErrors, op []string, o *CommandOption) {
	if len(o.Choices) == 0 {
		return
	}
	cp := at(op, "choices")
	if o.Type != OptionString && o.Type != OptionInteger && o.Type != OptionNumber {
		f.add(cp, "APPLICATION_COMMAND_OPTION_CHOICES_NOT_ALLOWED", "Only string, integer and number options have choices")
		return
	}
	if o.Autocomplete {
		f.add(at(op, "autocomplete"), "APPLICATION_COMMAND_AUTOCOMPLETE_CHOICES",
			"Autocomplete cannot be used with choices")
	}
	if !f.maxItems(cp, len(o.Choices), maxCommandChoices) {
		return
	}
	for i, ch := range o.Choices {
		validateChoice(f, at(cp, i), ch, o.Type)
	}
}

// commandChars approximates Discord's 8000-character budget: names,
// descriptions, choice names and values, each counted at its longest
// localization.
func commandChars(c *Command) int {
	n := longest(c.Name, c.NameLocalizations) + longest(c.Description, c.DescriptionLocalizations)
	var walk func([]CommandOption)
	walk = func(opts []CommandOption) {
		for _, o := range opts {
			n += longest(o.Name, o.NameLocalizations) + longest(o.Description, o.DescriptionLocalizations)
			for _, ch := range o.Choices {
				n += longest(ch.Name, ch.NameLocalizations)
				if s, ok := ch.Value.(string); ok {
					n += length(s)
				}
			}
			walk(o.Options)
		}
	}
	walk(c.Options)
	return n
}

func longest(def string, loc map[string]string) int {
	n := length(def)
	for _, v := range loc {
		n = max(n, length(v))
	}
	return n
}

// ValidLocale reports whether loc is one of Discord's locale codes.
func ValidLocale(loc string) bool { return discordLocales[loc] }
