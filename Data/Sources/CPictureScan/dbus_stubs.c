// Debian's static libzbar is built with D-Bus support: its image scanner can announce what it
// reads on the session bus when asked (zbar_image_scanner_request_dbus), which Tokens never
// does. These stand in for the D-Bus functions that code names, so the fully static binary
// links without libdbus (and without libsystemd, which libdbus needs and has no static
// archive). Reaching one would be a bug: each aborts.
#include <stdlib.h>

#define TOKENS_UNREACHABLE(name) \
    void name(void); \
    void name(void) { abort(); }

TOKENS_UNREACHABLE(dbus_bus_get)
TOKENS_UNREACHABLE(dbus_bus_release_name)
TOKENS_UNREACHABLE(dbus_bus_request_name)
TOKENS_UNREACHABLE(dbus_connection_flush)
TOKENS_UNREACHABLE(dbus_connection_send)
TOKENS_UNREACHABLE(dbus_error_free)
TOKENS_UNREACHABLE(dbus_error_init)
TOKENS_UNREACHABLE(dbus_error_is_set)
TOKENS_UNREACHABLE(dbus_message_iter_append_basic)
TOKENS_UNREACHABLE(dbus_message_iter_append_fixed_array)
TOKENS_UNREACHABLE(dbus_message_iter_close_container)
TOKENS_UNREACHABLE(dbus_message_iter_init_append)
TOKENS_UNREACHABLE(dbus_message_iter_open_container)
TOKENS_UNREACHABLE(dbus_message_new_signal)
TOKENS_UNREACHABLE(dbus_message_unref)
