// Settings every test file starts from; a test that needs others sets them itself.
process.env.ADMIN_API_TOKEN ??= 'test-admin-token-0123456789';
process.env.APP_URL ??= 'http://localhost:3000';
