-- the tenant that devices and rule chains created through the API belong to
INSERT INTO tenant (id, name, created_time) VALUES ('5a3c1e80-0000-4000-8000-000000000001', 'Default Tenant', 0);
