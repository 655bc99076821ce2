"""Every byte that can name a listener: the keyed hashes that stand in for what a station sends us (numbers,
interaction ids, lock and log subjects), and the registry of stores that hold personal values, which erasure, the
`encrypt` migration and the audit walk (nothing else lists stores)."""
