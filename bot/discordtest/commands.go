package discordtest

import (
	"net/http"
	"slices"
)

// commandScope checks the application and guild of a command route and
// returns the storage key ("" for global commands).
func (s *Server) commandScope(rq *request) (string, *APIError) {
	if rq.params["application.id"] != s.AppID {
		return "", apiErr(http.StatusForbidden, codeMissingAccess, "Missing Access")
	}
	g := rq.params["guild.id"]
	if g != "" && s.guilds[g] == nil {
		return "", apiErr(http.StatusForbidden, codeMissingAccess, "Missing Access")
	}
	return g, nil
}

func (s *Server) listCommands(rq *request) reply {
	g, e := s.commandScope(rq)
	if e != nil {
		return fail(e)
	}
	cmds := cloneJSON(s.commands[g])
	if rq.query.Get("with_localizations") != "true" {
		for i := range cmds {
			stripLocalizations(&cmds[i])
		}
	}
	if cmds == nil {
		cmds = []Command{}
	}
	return ok(cmds)
}

func stripLocalizations(c *Command) {
	c.NameLocalizations, c.DescriptionLocalizations = nil, nil
	var strip func([]CommandOption)
	strip = func(opts []CommandOption) {
		for i := range opts {
			opts[i].NameLocalizations, opts[i].DescriptionLocalizations = nil, nil
			for j := range opts[i].Choices {
				opts[i].Choices[j].NameLocalizations = nil
			}
			strip(opts[i].Options)
		}
	}
	strip(c.Options)
}

// registerCommand fills in id, version, application and guild, keeping the
// id of a command with the same type and name; s.mu is held.
func (s *Server) registerCommand(g string, c *Command, existing []Command) bool {
	c.ApplicationID = s.AppID
	c.GuildID = g
	c.Version = s.newID()
	for _, old := range existing {
		if old.Type == c.Type && old.Name == c.Name {
			c.ID = old.ID
			return false
		}
	}
	c.ID = s.newID()
	return true
}

func (s *Server) putCommands(rq *request) reply {
	g, e := s.commandScope(rq)
	if e != nil {
		return fail(e)
	}
	var cmds []Command
	if e := decodeBody(rq, &cmds); e != nil {
		return fail(e)
	}
	var f formErrors
	validateCommands(&f, cmds)
	if !f.empty() {
		return fail(f.apiError())
	}
	for i := range cmds {
		s.registerCommand(g, &cmds[i], s.commands[g])
	}
	if cmds == nil {
		cmds = []Command{}
	}
	s.commands[g] = cmds
	return ok(cloneJSON(cmds))
}

func (s *Server) createCommand(rq *request) reply {
	g, e := s.commandScope(rq)
	if e != nil {
		return fail(e)
	}
	var c Command
	if e := decodeBody(rq, &c); e != nil {
		return fail(e)
	}
	var f formErrors
	validateCommand(&f, nil, &c)
	if !f.empty() {
		return fail(f.apiError())
	}
	isNew := s.registerCommand(g, &c, s.commands[g])
	if isNew {
		s.commands[g] = append(s.commands[g], c)
		return created(c)
	}
	i := slices.IndexFunc(s.commands[g], func(old Command) bool { return old.ID == c.ID })
	s.commands[g][i] = c
	return ok(c)
}

func (s *Server) findCommand(rq *request) (string, int, *APIError) {
	g, e := s.commandScope(rq)
	if e != nil {
		return "", -1, e
	}
	i := slices.IndexFunc(s.commands[g], func(c Command) bool { return c.ID == rq.params["command.id"] })
	if i < 0 {
		return "", -1, apiErr(http.StatusNotFound, codeUnknownCommand, "Unknown application command")
	}
	return g, i, nil
}

func (s *Server) getCommand(rq *request) reply {
	g, i, e := s.findCommand(rq)
	if e != nil {
		return fail(e)
	}
	return ok(s.commands[g][i])
}

func (s *Server) deleteCommand(rq *request) reply {
	g, i, e := s.findCommand(rq)
	if e != nil {
		return fail(e)
	}
	s.commands[g] = slices.Delete(s.commands[g], i, i+1)
	return noContent()
}
