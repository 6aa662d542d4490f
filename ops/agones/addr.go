package agones

import (
	"fmt"
	"net"
	"os"
	"strconv"
)

// PortEnv is the environment variable through which Agones gives a game
// server the port of its sidecar's REST interface.
const PortEnv = "AGONES_SDK_HTTP_PORT"

// DefaultPort is the sidecar's REST port when PortEnv is not set.
const DefaultPort = 9358

// SidecarAddr returns the address of the sidecar's REST interface:
// 127.0.0.1 and the port in PortEnv, or DefaultPort if it is not set. A
// PortEnv that is not a port number is an error.
func SidecarAddr() (string, error) {
	port := DefaultPort
	if s := os.Getenv(PortEnv); s != "" {
		p, err := strconv.Atoi(s)
		if err != nil || p < 1 || p > 65535 {
			return "", fmt.Errorf("agones: %s=%q is not a port number", PortEnv, s)
		}
		port = p
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), nil
}
