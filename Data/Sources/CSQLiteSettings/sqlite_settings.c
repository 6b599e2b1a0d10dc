#include "sqlite_settings.h"

#include <sqlite3.h>

int tokens_sqlite_page_cache_on_demand(void) { return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0); }
