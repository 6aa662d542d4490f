package agones

// The states of a GameServer this package acts on.
const (
	StateReady    = "Ready"
	StateShutdown = "Shutdown"
)

// GameServer is what a game server reads of its GameServer resource.
type GameServer struct {
	Name   string
	State  string            // "Scheduled", "Ready", "Allocated", "Shutdown", ...
	Labels map[string]string // with their "agones.dev/sdk-" prefix
	Lists  map[string][]string
}

// wireGameServer is a GameServer as the REST interface encodes it.
type wireGameServer struct {
	ObjectMeta struct {
		Name   string            `json:"name"`
		Labels map[string]string `json:"labels"`
	} `json:"object_meta"`
	Status struct {
		State string `json:"state"`
		Lists map[string]struct {
			Values []string `json:"values"`
		} `json:"lists"`
	} `json:"status"`
}

// GameServer returns the fields of w that GameServer has.
func (w wireGameServer) GameServer() GameServer {
	gs := GameServer{Name: w.ObjectMeta.Name, State: w.Status.State, Labels: w.ObjectMeta.Labels, Lists: map[string][]string{}}
	for name, l := range w.Status.Lists {
		gs.Lists[name] = l.Values
	}
	return gs
}
