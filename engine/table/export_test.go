package table

// CacheLen reports how many tables the service holds in memory.
func (s *Service) CacheLen() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}
