/** The six required keys on lines 1-6 (tests only); extra lines start at line 7. */
export const BASE = `name: demo
title: Demo
description: A demo integration
organization: acme
visibility: private
scopes: [space:content:read]
`;
