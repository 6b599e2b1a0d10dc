extension SQLiteReadConnection: VaultQuerying {}
