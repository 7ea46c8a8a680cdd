// Stand-in for `fast-text-encoding` under Vite: lightning-fs imports it, but the polyfill crashes in a
// module worker ("reading 'TextEncoder'"), and browsers already have TextEncoder/TextDecoder.
export {};
