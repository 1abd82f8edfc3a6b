// Settings every test file starts from; a test that needs others sets them itself.
process.env.ADMIN_API_TOKEN ??= 'test-admin-token-0123456789';
process.env.APP_URL ??= 'http://localhost:3000';
// Webhook receivers in tests listen on loopback (docs/webhooks.md#delivery: the switch is for local tests);
// tests of the private-address guard turn it off for themselves.
process.env.WEBHOOK_ALLOW_PRIVATE_NETWORK ??= '1';
