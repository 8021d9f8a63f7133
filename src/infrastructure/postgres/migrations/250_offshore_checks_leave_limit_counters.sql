-- The S3 offshore-leak checks are no longer a limit_counters bucket (`s3:offshore:<account>:<month>`,
-- consumed by the S3 router before a screening existed, whose 429 refused the screening): since issue 33
-- the screening workflow uses them on the offshore-leak quota aggregate (event store streams
-- `quota-offshore_leaks-<account>-<month>`, docs/api-s3.md). Nothing reads these rows any more; they go, so
-- an operator looking at limit_counters does not read a stale count as the live one. (The month of the
-- upgrade counts from zero on the aggregate: at most one month's checks in the customers' favour.)
DELETE FROM limit_counters WHERE bucket LIKE 's3:offshore:%';
