// libqrencode (Debian: libqrencode-dev), wrapped as a system library target.
#include <qrencode.h>
