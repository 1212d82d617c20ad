package rulediff

import "google.golang.org/protobuf/reflect/protoreflect"

// directions says who sends each message that some RPC carries, in either schema: an RPC's
// input is sent by clients, its output by servers, and so is every message reachable from them
// through fields (map values, oneof members and recursion included). Both schemas count: a
// message that was a request in the base still reaches servers from old clients.
func directions(sides ...*schema) map[protoreflect.FullName]Direction {
	way := map[protoreflect.FullName]Direction{}
	var mark func(name protoreflect.FullName, d Direction)
	mark = func(name protoreflect.FullName, d Direction) {
		if way[name]&d == d {
			return // already marked this way, and so is everything it reaches
		}
		way[name] |= d
		for _, s := range sides {
			m := s.messages[name]
			if m == nil {
				continue
			}
			fields := m.Fields()
			for i := 0; i < fields.Len(); i++ {
				if t := fields.Get(i).Message(); t != nil {
					mark(t.FullName(), d)
				}
			}
		}
	}
	for _, s := range sides {
		for _, method := range s.methods {
			mark(method.Input().FullName(), Request)
			mark(method.Output().FullName(), Response)
		}
	}
	return way
}

// directionOf is the direction of a message: Both when no RPC carries it.
func directionOf(way map[protoreflect.FullName]Direction, name protoreflect.FullName) Direction {
	if d := way[name]; d != 0 {
		return d
	}
	return Both
}
