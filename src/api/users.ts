import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { unwrap, type ApiClient } from './client';
import type { components, operations } from './schema.gen';

export type CurrentUser = components['schemas']['CurrentUser'];

export const usersKeys = {
  all: ['users'] as const,
  me: () => [...usersKeys.all, 'me'] as const,
};

/** GET /api/v2/users/me */
export function fetchCurrentUser(api: ApiClient): Promise<CurrentUser> {
  return unwrap(api.GET('/api/v2/users/me'), 'Failed to fetch user profile');
}

export type User = components['schemas']['User'];
export type UserList = components['schemas']['UserList'];
/** A user as listUsers answers them: a User and whether a request is pending for them. */
export type UserListItem = components['schemas']['UserListItem'];
export type UserListQuery = NonNullable<operations['listUsers']['parameters']['query']>;

export const usersListKeys = {
  lists: () => [...usersKeys.all, 'list'] as const,
  list: (query: UserListQuery) => [...usersKeys.all, 'list', query] as const,
};

/** GET /api/v2/users */
export function fetchUsers(api: ApiClient, query: UserListQuery): Promise<UserList> {
  return unwrap(api.GET('/api/v2/users', { params: { query } }), 'Failed to fetch users');
}

export function usersQueryOptions(api: ApiClient, query: UserListQuery) {
  return queryOptions({ queryKey: usersListKeys.list(query), queryFn: () => fetchUsers(api, query), placeholderData: keepPreviousData });
}

/** POST /api/v2/users/{id}/deactivate */
export function deactivateUser(api: ApiClient, id: string): Promise<User> {
  return unwrap(api.POST('/api/v2/users/{id}/deactivate', { params: { path: { id } } }), 'Failed to update user');
}

/** POST /api/v2/users/{id}/reactivate */
export function reactivateUser(api: ApiClient, id: string): Promise<User> {
  return unwrap(api.POST('/api/v2/users/{id}/reactivate', { params: { path: { id } } }), 'Failed to update user');
}

/** DELETE /api/v2/users/{id}?hardDelete=true */
export function deleteUserPermanently(api: ApiClient, id: string): Promise<void> {
  return unwrap(api.DELETE('/api/v2/users/{id}', { params: { path: { id }, query: { hardDelete: true } } }), 'Failed to update user');
}

export type CreateUserCompleteRequest = components['schemas']['CreateUserCompleteRequest'];

/** POST /api/v2/users/complete: a user with their organizations and roles, in one call. */
export function createUserComplete(api: ApiClient, body: CreateUserCompleteRequest): Promise<components['schemas']['UserDetail']> {
  return unwrap(api.POST('/api/v2/users/complete', { body }), 'Failed to create user');
}
